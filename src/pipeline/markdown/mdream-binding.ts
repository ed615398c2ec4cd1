import { readdirSync, readFileSync } from 'node:fs';
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
  /**
   * Why the faster builds did not load, in plain words and with what to do (empty when the native
   * addon did). Never mdream's own loader message: it tells everyone to delete package-lock.json,
   * which is wrong where npm skipped the addon on purpose (Node 20).
   */
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
      problems.push(whyNoNativeAddon(err, installedAddons(), process.versions.node));
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

/** The `@mdream/rust-*` packages installed for this platform and architecture (beside `mdream`). */
function installedAddons(): string[] {
  try {
    const scope = path.join(path.dirname(require.resolve('mdream')), '..', '..', '@mdream');
    return readdirSync(scope).filter((name) => name.startsWith(`rust-${process.platform}-${process.arch}`));
  } catch {
    return [];
  }
}

/**
 * Why the native addon did not load, plainly: not installed (npm skips it below Node 22, as every
 * `@mdream/rust-*` package declares `engines.node >= 22`) or installed and failing, with the first
 * failure of mdream's loader that is not its generic advice.
 *
 * @example
 * whyNoNativeAddon(err, [], '20.19.0'); // "mdream's native addon is not installed: npm installs it on Node 22 or newer …"
 */
export function whyNoNativeAddon(err: unknown, installed: string[], nodeVersion: string): string {
  const major = Number(nodeVersion.split('.')[0]);
  if (installed.length === 0) {
    return major < 22
      ? `mdream's native addon is not installed: npm installs it only on Node 22 or newer, this is Node ${nodeVersion}`
      : `mdream's native addon for ${process.platform}-${process.arch} is not installed: run npm ci again on this Node (${nodeVersion}) to install it`;
  }
  const causes: string[] = [];
  for (let e: unknown = err; e instanceof Error; e = e.cause) causes.push(message(e));
  const specific = causes.find((c) => !/^Cannot find (native binding|module)/.test(c)) ?? causes.at(-1) ?? '';
  return `mdream's native addon (@mdream/${installed.join(', @mdream/')}) is installed but did not load: ${specific}`;
}

function message(err: unknown): string {
  const text = err instanceof Error ? err.message : String(err);
  return text.split('\n')[0] ?? text;
}
