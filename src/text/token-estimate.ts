/**
 * Approximate token counts, without the model's tokenizer. The model behind an
 * OpenAI-compatible server is unknown (Llama, Qwen, Mistral, GPT… each tokenises differently),
 * so an exact count for one tokenizer is no more right than a calibrated estimate, and a
 * tokenizer package would load megabytes of vocabulary per process. Estimate per character:
 *
 * - ASCII: 1/4 token (English prose averages about 4 characters per BPE token);
 * - Han, kana, Hangul: 1 token each (typical for CJK in multilingual vocabularies);
 * - anything else (accented Latin, Cyrillic, Arabic, emoji…): 1/2 token.
 *
 * Code, URLs and numbers tokenise denser than prose: budgets built on this estimate keep a
 * safety margin (see `fitToTokenBudget`).
 *
 * @example
 * estimateTokens('Hello world!'); // 3
 * estimateTokens('東京');          // 2
 */
export function estimateTokens(text: string): number {
  let cost = 0;
  for (let i = 0; i < text.length; i++) cost += charCost(text.charCodeAt(i));
  return Math.ceil(cost);
}

/**
 * The longest beginning of `text` whose estimate is at most `tokens`, cut after the last
 * whitespace when there is one in its second half (so words stay whole).
 */
export function cutToTokens(text: string, tokens: number): string {
  let cost = 0;
  let end = 0;
  while (end < text.length) {
    const next = cost + charCost(text.charCodeAt(end));
    if (next > tokens) break;
    cost = next;
    end++;
  }
  if (end >= text.length) return text;
  // Never split a surrogate pair.
  if (end > 0 && isHighSurrogate(text.charCodeAt(end - 1))) end--;
  const space = text.slice(0, end).search(/\s\S*$/);
  return text.slice(0, space > end / 2 ? space : end);
}

function charCost(code: number): number {
  if (code < 0x80) return 0.25;
  if (isCjk(code)) return 1;
  // The low half of a surrogate pair is paid for by its high half.
  if (code >= 0xdc00 && code <= 0xdfff) return 0;
  return 0.5;
}

function isCjk(code: number): boolean {
  return (
    (code >= 0x3040 && code <= 0x30ff) || // Hiragana, Katakana
    (code >= 0x3400 && code <= 0x4dbf) || // CJK Extension A
    (code >= 0x4e00 && code <= 0x9fff) || // CJK Unified Ideographs
    (code >= 0xac00 && code <= 0xd7af) || // Hangul syllables
    (code >= 0xf900 && code <= 0xfaff) // CJK Compatibility Ideographs
  );
}

function isHighSurrogate(code: number): boolean {
  return code >= 0xd800 && code <= 0xdbff;
}
