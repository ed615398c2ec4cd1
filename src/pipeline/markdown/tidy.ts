/**
 * Final clean-up of converted markdown, outside fenced code blocks only: no trailing whitespace
 * (except a two-space hard break followed by more text), no runs of blank lines, no blank lines
 * at either end.
 */
export function tidyMarkdown(markdown: string): string {
  const lines = markdown.split('\n');
  const out: string[] = [];
  let fence: string | null = null;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i] as string;
    if (fence !== null) {
      out.push(line);
      // The closing fence stands after the same quote markers and indentation as the content.
      const body = line.replace(/^[ \t>]*/, '').trimEnd();
      if (body.startsWith(fence) && body === fence.padEnd(body.length, fence[0])) fence = null;
      continue;
    }
    // A fence may open after quote markers and a list item's marker (`3. ```sh`).
    const opening = /^[ \t>]*(?:(?:[-*+]|\d{1,9}[.)]) +)?(`{3,}|~{3,})/.exec(line);
    if (opening) {
      fence = opening[1] as string;
      out.push(line.trimEnd());
      continue;
    }
    const next = lines[i + 1];
    const hardBreak = /\S {2}$/.test(line) && next !== undefined && next.trim() !== '' && next.trim() !== '>';
    let trimmed = hardBreak ? line.replace(/ +$/, '  ') : line.trimEnd();
    // One leading space is never indentation (lists need two or more); it is left-over inline whitespace.
    if (/^ \S/.test(trimmed)) trimmed = trimmed.slice(1);
    // Adjacent bold runs (<b>one</b><b>two</b>) would read as "****": join them.
    if (trimmed.includes('****') && !trimmed.includes('`')) trimmed = trimmed.replace(/(?<![\\*])\*{4}(?!\*)/g, '');
    if (trimmed === '' && (out.length === 0 || out[out.length - 1] === '')) continue;
    out.push(trimmed);
  }
  while (out.length > 0 && out[out.length - 1] === '') out.pop();
  return out.join('\n');
}
