import { parseHTML } from 'linkedom';
import { describe, expect, it } from 'vitest';
import { runCleanup, planCleanup } from '../../../src/pipeline/cleanup.js';
import { DEFAULT_REMOVE_SELECTORS } from '../../../src/pipeline/index.js';
import { compileSelectors } from '../../../src/pipeline/selector-matcher.js';

const HTML = `<html><head><script>s</script></head><body>
<div id="Cookie-Banner-1" class="x">cookie</div>
<div class="ad-wrapper">keep: not the word "ad"</div>
<div class="slot ad">ad</div>
<p class="lead intro" data-kind="Teaser">teaser</p>
<p lang="en-GB">british</p>
<span aria-hidden="true">hidden</span>
<span aria-hidden="false">visible</span>
<article><header>article header</header><p>body</p></article>
<header>page header</header>
<ul><li class="w-1/2 md:flex">odd class</li><li>plain</li></ul>
</body></html>`;

function remaining(selectors: string[], classNames: string[] = []): string[] {
  const document = parseHTML(HTML).document as unknown as Document;
  runCleanup(document, planCleanup({ selectors, removeImages: false, removeClassNames: classNames }));
  return Array.from(document.body.querySelectorAll('*'))
    .filter((el) => el.children.length === 0)
    .map((el) => (el.textContent ?? '').trim());
}

// The same selectors through css-select alone: the fast path must agree with it.
function reference(selectors: string[]): string[] {
  const document = parseHTML(HTML).document as unknown as Document;
  for (const el of document.querySelectorAll(selectors.join(', '))) el.remove();
  return Array.from(document.body.querySelectorAll('*'))
    .filter((el) => el.children.length === 0)
    .map((el) => (el.textContent ?? '').trim());
}

describe('selector matcher', () => {
  it.each([
    [['script', 'div']],
    [['#Cookie-Banner-1']],
    [['[id*=cookie-banner i]']],
    [['[id*=cookie-banner]']],
    [['.ad']],
    [['[class~="ad"]']],
    [['p.lead.intro']],
    [['p.lead.other']],
    [['[data-kind=teaser i]', '[data-kind=teaser]']],
    [['[lang|=en]', '[lang^="en-"]', '[lang$=GB]']],
    [['[aria-hidden=true]']],
    [['[aria-hidden]']],
    [['span[aria-hidden="false"]']],
    [['header:not(article header)']],
    [['article > p', 'li:first-child']],
    [['li.w-1\\/2']],
    [[...DEFAULT_REMOVE_SELECTORS]],
  ])('agrees with css-select for %j', (selectors) => {
    expect(remaining(selectors)).toEqual(reference(selectors));
  });

  it('keeps complex selectors for css-select and compiles the rest', () => {
    const compiled = compileSelectors(['script, style', 'header:not(article header)', 'a > b', '.x'], []);
    expect(compiled.complex).toBe('header:not(article header), a > b');
    expect(compiled.empty).toBe(false);
    expect(compileSelectors([], []).empty).toBe(true);
  });

  it('removes class names of any spelling, as whole class tokens', () => {
    expect(remaining([], ['w-1/2'])).not.toContain('odd class');
    expect(remaining([], ['ad'])).toContain('keep: not the word "ad"');
    expect(remaining([], ['ad'])).not.toContain('ad');
  });
});
