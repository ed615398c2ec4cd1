/** A source that is not a web page: a context file's text, named for `result.sources`. */
export interface ContextSource {
  /** What `result.sources` lists for it (the file id). */
  source: string;
  /** Its text (markdown or plain); ranked with the web pages' passages. */
  text: string;
}

/**
 * Where answers read `context_file_ids` (decisions.md, Files additions: `purpose: "context"`
 * files may be passed to answers). The answers module is given an implementation over the
 * files module (`createFileContextSources`, file-context-sources.ts). Contract: every id must
 * be a completed context file of `teamId`, else 404 `file_not_found` (another team's file too:
 * never reveal existence); a file of another purpose, not completed, or too large is 400
 * (`invalid_file_purpose`, `file_not_completed`, `file_too_large`). Texts come back in the
 * ids' order.
 *
 * @example
 * const sources: AnswerContextSources = {
 *   async check(teamId, ids) {
 *     for (const id of ids) await files.usable({ teamId, via: 'api_key' }, id, { purpose: 'context' });
 *   },
 *   async read(teamId, ids, signal) {
 *     return Promise.all(ids.map(async (id) => ({ source: id, text: await files.readContextText({ teamId, via: 'api_key' }, id) })));
 *   },
 * };
 */
export interface AnswerContextSources {
  /** Checks the ids without reading the contents (at create time: bad ids fail before anything is stored). */
  check(teamId: string, ids: readonly string[]): Promise<void>;
  read(teamId: string, ids: readonly string[], signal: AbortSignal): Promise<ContextSource[]>;
}
