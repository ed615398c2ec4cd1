/**
 * The URL of the TypeScript module `relative` (written with its `.ts` name) next to the module
 * at `from` (its `import.meta.url`). Under tsx and vitest that is the `.ts` file; in the build
 * `npm start` runs (src/runtime/start.mjs) the caller is a `.js` file and so is the module.
 *
 * @example
 * startTsWorker(moduleUrl('./convert-worker.ts', import.meta.url));
 */
export function moduleUrl(relative: string, from: string): URL {
  const url = new URL(relative, from);
  if (new URL(from).pathname.endsWith('.js')) url.pathname = url.pathname.replace(/\.ts$/, '.js');
  return url;
}
