import type { ContentFormat, ContentKind } from './types.js';

/**
 * Content types other than HTML. XHTML (`application/xhtml+xml`, or XML whose root is `<html>`)
 * is HTML. Plain text and markdown are their own markdown; JSON becomes a fenced, pretty-printed
 * ```json block (as served when it does not parse); XML, CSS, JavaScript, YAML and CSV become a
 * fenced block tagged with their language. `text` is the body as served; `html` is the body
 * escaped inside `<pre>`. A missing content type is sniffed from the first bytes.
 */

const CODE_LANGUAGE: Record<string, string> = {
  'text/css': 'css',
  'text/javascript': 'javascript',
  'application/javascript': 'javascript',
  'application/x-javascript': 'javascript',
  'text/yaml': 'yaml',
  'text/x-yaml': 'yaml',
  'application/yaml': 'yaml',
  'application/x-yaml': 'yaml',
  'text/csv': 'csv',
};

const XHTML_ROOT =
  /^\s*(?:<\?xml[^>]*>\s*)?(?:<!--[\s\S]*?-->\s*)*(?:<!doctype\s+html[^>]*>\s*)?(?:<!--[\s\S]*?-->\s*)*<html[\s>]/i;

export function classifyContent(contentType: string, text: string): Exclude<ContentKind, 'pdf'> {
  const type = contentType.trim().toLowerCase();
  if (type === 'text/html' || type === 'application/xhtml+xml') return 'html';
  if (type === 'application/json' || type === 'text/json' || type.endsWith('+json')) return 'json';
  if (type === 'application/xml' || type === 'text/xml' || type.endsWith('+xml')) {
    return XHTML_ROOT.test(text.slice(0, 2048)) ? 'html' : 'xml';
  }
  if (type === 'text/markdown' || type === 'text/x-markdown') return 'markdown';
  if (CODE_LANGUAGE[type]) return 'code';
  if (type === '') return sniff(text);
  return 'text';
}

function sniff(text: string): Exclude<ContentKind, 'pdf'> {
  const head = text.slice(0, 1024).trimStart();
  if (/^(?:<!doctype\s+html|<html[\s>]|<head[\s>]|<body[\s>])/i.test(head) || XHTML_ROOT.test(head)) return 'html';
  if (head.startsWith('<?xml')) return 'xml';
  if (/^[[{]/.test(head)) {
    try {
      JSON.parse(text);
      return 'json';
    } catch {
      return 'text';
    }
  }
  return /^<[a-z!]/i.test(head) ? 'html' : 'text';
}

/** Kinds rendered from decoded text here (PDFs are read from their bytes: src/pdf). */
export type NonHtmlKind = Exclude<ContentKind, 'html' | 'pdf'>;

export function renderNonHtml(
  kind: NonHtmlKind,
  contentType: string,
  raw: string,
  wanted: Readonly<Record<ContentFormat, boolean>>,
): Partial<Record<ContentFormat, string>> {
  const text = raw.replace(/\r\n?/g, '\n');
  const shown = kind === 'json' ? prettyJson(text) : text;
  const out: Partial<Record<ContentFormat, string>> = {};
  if (wanted.markdown) out.markdown = markdownOf(kind, contentType, shown);
  if (wanted.text) out.text = text;
  if (wanted.html) out.html = `<pre>${escapeHtml(shown)}</pre>`;
  return out;
}

function markdownOf(kind: NonHtmlKind, contentType: string, text: string): string {
  if (kind === 'text' || kind === 'markdown') return text.replace(/\s+$/, '');
  const language = kind === 'code' ? (CODE_LANGUAGE[contentType.trim().toLowerCase()] ?? '') : kind;
  return fenced(language, text.replace(/^\n+|\s+$/g, ''));
}

function prettyJson(text: string): string {
  try {
    return JSON.stringify(JSON.parse(text), null, 2);
  } catch {
    return text;
  }
}

function fenced(language: string, code: string): string {
  let longest = 0;
  for (const match of code.matchAll(/^[ \t]*(`{3,})/gm)) longest = Math.max(longest, (match[1] as string).length);
  const fence = '`'.repeat(Math.max(3, longest + 1));
  return `${fence}${language}\n${code}\n${fence}`;
}

/** Escapes text for an HTML text node. */
export function escapeHtml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}
