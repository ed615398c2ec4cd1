import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';

/**
 * mdream (Rust) for the markdown converter, loaded synchronously so a pipeline can be created
 * without awaiting: its native addon for this platform when installed (`@mdream/rust-<platform>`,
 * an optional dependency of `mdream`), else the WebAssembly build that ships inside the `mdream`
 * package itself (same Rust code, same output, about a quarter slower), else nothing.
 *
 * Why both: every `@mdream/rust-*` package declares `engines.node >= 22`, so npm skips it as an
 * optional dependency on Node 20 (docs/content-pipeline.md, "Installing mdream"); the WebAssembly
 * build needs no platform package and runs on any Node.
 */

export interface MdreamBinding {
  /** `native`: the platform addon; `wasm`: the WebAssembly build. */
  readonly kind: 'native' | 'wasm';
  /** The `mdream` package's version (the platform addon is pinned to the same). */
  readonly version: string;
  /** HTML to markdown with mdream's defaults (no origin: the HTML writer resolves URLs itself). */
  convert(html: string): string;
}

export interface MdreamLoad {
  /** Null when neither build loads; `problems` then says why. */
  binding: MdreamBinding | null;
  /** Why the faster builds did not load (empty when the native addon did). */
  problems: string[];
}

interface NativeModule {
  htmlToMarkdown(html: string, options?: object): string;
}

interface WasmModule {
  initSync(input: { module: Buffer }): unknown;
  htmlToMarkdownResult(html: string, options: undefined): { markdown?: string };
}

const require = createRequire(import.meta.url);

/**
 * Loads mdream once per thread (each worker thread has its own module instances). `prefer: 'wasm'`
 * skips the native addon (measurements, tests of the WebAssembly build).
 *
 * @example
 * const { binding, problems } = loadMdream();
 * if (binding) binding.convert('<h1>Title</h1>'); // "# Title"
 */
export function loadMdream(prefer: 'native' | 'wasm' = 'native'): MdreamLoad {
  const problems: string[] = [];
  let version: string;
  try {
    // `mdream/package.json` is not among the package's exports; its main file sits in dist/.
    const manifest = path.join(path.dirname(require.resolve('mdream')), '..', 'package.json');
    version = (JSON.parse(readFileSync(manifest, 'utf8')) as { version: string }).version;
  } catch (err) {
    return { binding: null, problems: [`the mdream package is not installed (${message(err)})`] };
  }
  if (prefer === 'native') {
    try {
      const native = require('mdream') as NativeModule;
      return { binding: { kind: 'native', version, convert: (html) => native.htmlToMarkdown(html) }, problems };
    } catch (err) {
      problems.push(`mdream's native addon for ${process.platform}-${process.arch} did not load: ${message(err)}`);
    }
  }
  try {
    const wasm = require('mdream/wasm') as WasmModule;
    wasm.initSync({ module: readFileSync(require.resolve('mdream/wasm/mdream_edge_bg.wasm')) });
    const convert = (html: string): string => wasm.htmlToMarkdownResult(html, undefined).markdown ?? '';
    return { binding: { kind: 'wasm', version, convert }, problems };
  } catch (err) {
    problems.push(`mdream's WebAssembly build did not load: ${message(err)}`);
  }
  return { binding: null, problems };
}

function message(err: unknown): string {
  const text = err instanceof Error ? err.message : String(err);
  return text.split('\n')[0] ?? text;
}
