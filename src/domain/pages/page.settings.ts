import { int, type ParsedOf, type SettingsTable } from '../../settings.js';

/** The pages module's settings (src/config.ts reads them with the core's). */
export const PAGE_SETTINGS = {
  PAGE_SEARCH_TEXT_CHARS: {
    schema: int(0, 100_000),
    default: '20000',
    doc: "Characters of a stored page's markdown (or text) written to the full-text index of the `stored` search provider, after its title and description. The index is written with every page stored: its text's vector is assembled from pieces the database read before (PAGE_SEARCH_PIECES), and the pieces it has not seen are parsed on the database's CPU (docs/benchmarks.md). Lower it for throughput; 0 indexes titles and descriptions only. Pages stored before a change keep their index.",
  },
  PAGE_SEARCH_PIECES: {
    // Below ~10,000 a page's own pieces would fill it: every page would read them all again.
    schema: int(0, 10_000_000).refine((n) => n === 0 || n >= 10_000, { error: 'expected 0 or at least 10000' }),
    doc: "Pieces of pages' text (words with the punctuation around them) whose full-text lexemes each process remembers, so a page's vector is assembled from what the database made of its pieces before instead of the database parsing the whole text again: the same vector at a fraction of the embedded database's CPU (docs/answers.md). About 220 bytes of memory a piece with its lexemes, half of it in typed arrays (bench/results/s27-parity-memory.md). 0 parses every page's text in the database. Unset: 100000 on the embedded database, 0 with DATABASE_URL (a server's native parser costs less than assembling: docs/benchmarks.md).",
  },
} satisfies SettingsTable;

export interface PageSettings {
  /** Characters of a page's text in its `search_vector` (title and description are always in it). */
  searchTextChars: number;
  /** Pieces remembered for assembling text vectors (0: the database parses every text; null: by database). */
  searchPieces: number | null;
}

export function pageSettings(v: ParsedOf<typeof PAGE_SETTINGS>): PageSettings {
  return { searchTextChars: v.PAGE_SEARCH_TEXT_CHARS, searchPieces: v.PAGE_SEARCH_PIECES ?? null };
}
