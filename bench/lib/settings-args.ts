/**
 * The service settings given as `--set NAME=VALUE` (repeatable) to a benchmark, by name.
 *
 * @example
 * settingsOf(['PAGE_SEARCH_TEXT_CHARS=0', 'X=a=b']); // → { PAGE_SEARCH_TEXT_CHARS: '0', X: 'a=b' }
 */
export function settingsOf(pairs: readonly string[] | undefined): Record<string, string> {
  return Object.fromEntries(
    (pairs ?? []).map((pair) => {
      const eq = pair.indexOf('=');
      if (eq < 1) throw new Error(`--set expects NAME=VALUE (got ${pair})`);
      return [pair.slice(0, eq), pair.slice(eq + 1)];
    }),
  );
}
