import { once } from 'node:events';
import { createWriteStream } from 'node:fs';

/**
 * Writes a JSON array of `record(0)`, `record(1)`… to `file`, streamed, until the next record
 * would take the file past `maxBytes` or `record` returns null: large test inputs for the
 * file benchmarks without holding them in memory.
 */
export async function writeJsonArrayFile(
  file: string,
  maxBytes: number,
  record: (i: number) => unknown,
): Promise<void> {
  const out = createWriteStream(file);
  let size = 5; // the brackets: '[\n' and '\n]\n'
  out.write('[\n');
  for (let i = 0; ; i++) {
    const value = record(i);
    if (value === null) break;
    const text = `${i === 0 ? '' : ',\n'}${JSON.stringify(value)}`;
    const bytes = Buffer.byteLength(text);
    if (size + bytes > maxBytes) break;
    size += bytes;
    if (!out.write(text)) await once(out, 'drain');
  }
  out.end('\n]\n');
  await once(out, 'finish');
}
