/** A source that is not a web page: a context file's text, named for `result.sources`. */
export interface ContextSource {
  /** What `result.sources` lists for it (the file id). */
  source: string;
  /** Its text (markdown or plain); ranked with the web pages' passages. */
  text: string;
}

/**
 * Where answers read `context_file_ids` (decisions.md, Files additions: `purpose: "context"`
 * files may be passed to answers). The files module implements it (`fileContextSources` in
 * file-context.ts) and the answers module is given that implementation. Contract: every id must be a completed context file of `teamId`, else 404
 * `file_not_found` (another team's file too: never reveal existence); a file that is not a
 * context file or not completed is 400 `validation_error`. Texts come back in the ids' order.
 *
 * @example
 * const sources: AnswerContextSources = {
 *   async read(teamId, ids, signal) {
 *     const files = await fileService.requireCompleted(teamId, ids, 'context');
 *     return Promise.all(files.map(async (f) => ({ source: f.id, text: await fileService.text(f, signal) })));
 *   },
 * };
 */
export interface AnswerContextSources {
  /** Checks the ids without reading the contents (at create time: bad ids fail before anything is stored). */
  check(teamId: string, ids: readonly string[]): Promise<void>;
  read(teamId: string, ids: readonly string[], signal: AbortSignal): Promise<ContextSource[]>;
}
