import type TurndownService from 'turndown';
import { ancestorWithClass } from '../dom.js';
import type { PageElement, PageNode, PageText } from '../page-node.js';

/**
 * Code blocks and inline code. A `<pre>` becomes a fenced block whose info string is the language
 * the page declares, in any of the ways highlighters and generators write it:
 * `class="language-x"` / `lang-x` (Prism, highlight.js, markdown renderers), `highlight-source-x`
 * (GitHub), `brush: x` (SyntaxHighlighter), `sourceCode x` (pandoc), `data-lang`/`data-language`,
 * `<pre lang="x">`, or a known language name as a class (`<code class="python hljs">`); looked up
 * on the `<pre>`, its `<code>`, and the two wrappers above it.
 */

const CLASS_PATTERNS = [
  /(?:^|\s)(?:language|lang)-([\w#+.-]+)/i,
  /(?:^|\s)highlight-(?:source|text)-([\w#+.-]+)/i,
  /(?:^|\s)highlight-(?!source-|text-)([\w#+.-]+)/i,
  /(?:^|\s)brush:\s*([\w#+.-]+)/i,
  /(?:^|\s)sourceCode\s+([\w#+.-]+)/,
];

/** Class names that are languages on their own (highlight.js style `<code class="python">`). */
const KNOWN_LANGUAGES = new Set(
  (
    'bash c clojure cpp cs csharp css dart diff dockerfile elixir erlang go graphql groovy haskell html http ini ' +
    'java javascript js json jsx julia kotlin latex lua makefile markdown matlab nginx objectivec ocaml perl php ' +
    'powershell python r ruby rust scala scss shell sh sql swift toml ts tsx typescript vim xml yaml yml zsh'
  ).split(' '),
);

const NOT_A_LANGUAGE = new Set(['none', 'default', 'plaintext', 'plain', 'text', 'txt', 'nohighlight', 'no-highlight']);

/** Elements inside a `<pre>` that number lines rather than hold code. */
const LINE_NUMBER_CLASS = /(?:^|\s)(?:line-?numbers?-?rows|linenos?|lineno|gutter|line-numbers?)(?:\s|$)/i;

export function detectCodeLanguage(pre: PageElement): string {
  const code = pre.firstElementChild?.nodeName === 'CODE' ? pre.firstElementChild : null;
  const parent = pre.parentElement;
  const candidates = [code, pre, parent, parent?.parentElement].filter((el): el is Element => !!el);
  const preLang = pre.getAttribute('lang');
  if (preLang) return normaliseLanguage(preLang);
  for (const element of candidates) {
    const data = element.getAttribute('data-lang') ?? element.getAttribute('data-language');
    if (data) return normaliseLanguage(data);
    const className = element.getAttribute('class') ?? '';
    if (!className) continue;
    for (const pattern of CLASS_PATTERNS) {
      const match = pattern.exec(className);
      if (match?.[1]) return normaliseLanguage(match[1]);
    }
    if (element === code || element === pre) {
      const known = className.split(/\s+/).find((name) => KNOWN_LANGUAGES.has(name.toLowerCase()));
      if (known) return normaliseLanguage(known);
    }
  }
  return '';
}

function normaliseLanguage(value: string): string {
  const language = value.trim().toLowerCase();
  if (NOT_A_LANGUAGE.has(language) || !/^[\w#+.-]+$/.test(language)) return '';
  return language;
}

/** The code as the reader sees it: `<br>` and block children are line breaks, line-number gutters are skipped. */
export function codeText(pre: PageElement): string {
  let out = '';
  const walk = (node: PageNode): void => {
    for (let child = node.firstChild; child; child = child.nextSibling) {
      if (child.nodeType === 3 || child.nodeType === 4) {
        out += (child as PageText).data;
      } else if (child.nodeType === 1) {
        const element = child as PageElement;
        if (element.nodeName === 'BR') {
          out += '\n';
          continue;
        }
        if (LINE_NUMBER_CLASS.test(element.getAttribute('class') ?? '')) continue;
        walk(element);
        if (BLOCK_IN_PRE.has(element.nodeName) && !out.endsWith('\n')) out += '\n';
      }
    }
  };
  walk(pre);
  // The HTML parser would drop one newline right after <pre>; linkedom keeps it.
  return out
    .replace(/^\r?\n/, '')
    .replace(/\r\n?/g, '\n')
    .replace(/\s+$/, '');
}

const BLOCK_IN_PRE = new Set(['DIV', 'P', 'LI', 'TR']);

const LINE_NUMBER_CONTAINER = /(?:^|\s)(?:linenos|linenodiv|gutter|line-numbers-rows)(?:\s|$)/;

/**
 * A `<pre>` as a fenced code block with the language the page declares, or '' for a blank block
 * and for the gutter of a line-numbered listing (Pygments' "table" style puts it in a `<pre>` of its own).
 */
export function codeBlock(pre: PageElement): string {
  if (ancestorWithClass(pre, LINE_NUMBER_CONTAINER)) return '';
  const code = codeText(pre);
  if (!code.trim()) return '';
  const fence = fenceFor(code);
  return `${fence}${detectCodeLanguage(pre)}\n${code}\n${fence}`;
}

/** A fence longer than any backtick run at a line start inside the code. */
function fenceFor(code: string): string {
  let longest = 0;
  for (const match of code.matchAll(/^[ \t]*(`{3,})/gm)) longest = Math.max(longest, (match[1] as string).length);
  return '`'.repeat(Math.max(3, longest + 1));
}

export function codeRules(service: TurndownService): void {
  service.addRule('fencedCode', {
    filter: 'pre',
    replacement: (_content, node) => {
      const block = codeBlock(node as PageElement);
      return block ? `\n\n${block}\n\n` : '';
    },
  });
  service.addRule('keyboardAndSample', {
    filter: (node) => node.nodeName === 'KBD' || node.nodeName === 'SAMP' || node.nodeName === 'TT',
    // The raw text: these elements' text is not markdown-escaped inside a code span.
    replacement: (_content, node) => inlineCode(node.textContent ?? ''),
  });
}

/** Inline code with a delimiter longer than any backtick run inside (CommonMark's rule). */
export function inlineCode(content: string): string {
  const text = content.replace(/\r?\n|\r/g, ' ');
  if (!text.trim()) return '';
  let delimiter = '`';
  const runs: string[] = text.match(/`+/g) ?? [];
  while (runs.includes(delimiter)) delimiter += '`';
  const pad = /^`|`$/.test(text) || /^ .*\S.* $/.test(text) ? ' ' : '';
  return `${delimiter}${pad}${text}${pad}${delimiter}`;
}
