/**
 * Tells this process's job supervisor that work was just queued (a batch or a crawl created
 * through this process's API), so it starts the job threads at once instead of at its next
 * look at the database. Work queued elsewhere is found by that look.
 */
export class WorkSignal {
  private readonly listeners = new Set<() => void>();

  notify(): void {
    for (const listener of this.listeners) listener();
  }

  /** Calls `listener` on every notify until the returned function is called. */
  listen(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => void this.listeners.delete(listener);
  }
}
