import { readFileSync } from 'node:fs';
import path from 'node:path';

/**
 * The README's examples as a newcomer meets them, in order: the shell commands of its ```sh
 * blocks (continuations joined, comments dropped, a quoted argument may span lines) and the files
 * of blocks whose info string names one (```json items.json, ```js watch.mjs).
 */
export type ReadmeExample =
  { kind: 'command'; text: string; line: number } | { kind: 'file'; name: string; text: string; line: number };

const ROOT = path.resolve(import.meta.dirname, '../..');

export function readmeExamples(readme = readFileSync(path.join(ROOT, 'README.md'), 'utf8')): ReadmeExample[] {
  const out: ReadmeExample[] = [];
  for (const m of readme.matchAll(/^```(\w+)([^\n]*)\n([\s\S]*?)^```$/gm)) {
    const [, lang, info, body] = m as unknown as [string, string, string, string];
    const line = readme.slice(0, m.index).split('\n').length;
    const name = info.trim();
    if (name) out.push({ kind: 'file', name, text: body, line });
    else if (lang === 'sh') for (const text of commands(body)) out.push({ kind: 'command', text, line });
  }
  return out;
}

/** Splits a shell block into commands: a newline ends one unless quoted or escaped. */
export function commands(block: string): string[] {
  const out: string[] = [];
  let current = '';
  let quote: string | null = null;
  for (let i = 0; i < block.length; i++) {
    const ch = block[i]!;
    if (!quote && ch === '\\' && block[i + 1] === '\n') {
      i++;
      current += ' ';
      continue;
    }
    if (quote) {
      if (ch === quote) quote = null;
    } else if (ch === "'" || ch === '"') quote = ch;
    else if (ch === '\n') {
      out.push(current);
      current = '';
      continue;
    }
    current += ch;
  }
  out.push(current);
  return out.map((c) => c.replace(/\s+$/, '').replace(/^\s+/, '')).filter((c) => c && !c.startsWith('#'));
}

/** `npm install`, `npm start` (with the settings before it): what a person runs to start the service. */
export function serviceLine(command: string): Record<string, string> | null {
  const m = /^((?:\w+=\S+\s+)*)npm (?:install|start)\b/.exec(command);
  if (!m) return null;
  return Object.fromEntries([...m[1]!.matchAll(/(\w+)=(\S+)/g)].map((a) => [a[1]!, a[2]!]));
}

/** The answers so far, newest last, for the README's `<placeholders>`. */
export type Answers = Record<string, unknown>[];

/**
 * The value a `<placeholder>` stands for, from the answers so far (newest first): `<x_id>` is the
 * `id` of the latest object `x` (`batch`, `monitor`, `file`…); any other name is the latest field
 * of that name (`<upload_url>`, `<retrieve_id>`, `<run_id>`), looked for one level deep too.
 */
export function placeholderValue(name: string, answers: Answers): string | undefined {
  for (const answer of [...answers].reverse()) {
    const idOf = /^(\w+)_id$/.exec(name)?.[1];
    if (
      idOf &&
      typeof answer.object === 'string' &&
      answer.object.split('.')[0] === idOf &&
      typeof answer.id === 'string'
    )
      return answer.id;
    const found = field(answer, name);
    if (found !== undefined) return found;
  }
  return undefined;
}

function field(value: unknown, name: string, depth = 0): string | undefined {
  if (!value || typeof value !== 'object' || depth > 2) return undefined;
  const record = value as Record<string, unknown>;
  if (typeof record[name] === 'string') return record[name];
  for (const inner of Object.values(record)) {
    const found = field(inner, name, depth + 1);
    if (found !== undefined) return found;
  }
  return undefined;
}
