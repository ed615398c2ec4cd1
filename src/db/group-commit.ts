export interface GroupCommitOptions {
  /**
   * How long the first item of a group waits for others before the group runs (0: the rest of
   * this turn of the event loop, which is how long the jobs of one claim take to arrive).
   */
  windowMs: number;
  /** Items per group at most; a full group runs at once. */
  maxSize: number;
  /** Groups running at once at most; items arriving meanwhile wait and form the next group. */
  maxInFlight: number;
}

interface Pending<I, O> {
  item: I;
  resolve: (value: O) => void;
  reject: (err: unknown) => void;
}

/**
 * Group commit: items submitted one by one (by concurrent jobs) run as groups, one call of
 * `run` — one transaction — per group, and each submitter gets its own item's result. While
 * `maxInFlight` groups run, new items collect, so groups grow with the load and shrink to one
 * item on a quiet queue. A group whose `run` throws (it rolled back) runs again item by item, so
 * one bad item (or a deadlock) fails only its own submitter, with its own error.
 *
 * @example
 * const finishes = new GroupCommit<Outcome, boolean>(
 *   (outcomes) => queue.transaction((em) => recordAll(em, outcomes)),   // one result per outcome, in order
 *   { windowMs: 5, maxSize: 200, maxInFlight: 2 },
 * );
 * const recorded = await finishes.submit(outcome);
 */
export class GroupCommit<I, O> {
  private pending: Pending<I, O>[] = [];
  /** Cancels the scheduled run of the pending group, if one is scheduled. */
  private cancelTimer: (() => void) | null = null;
  private inFlight = 0;

  constructor(
    private readonly run: (items: I[]) => Promise<O[]>,
    private readonly options: GroupCommitOptions,
  ) {}

  submit(item: I): Promise<O> {
    return new Promise<O>((resolve, reject) => {
      this.pending.push({ item, resolve, reject });
      if (this.pending.length >= this.options.maxSize) this.flush();
      else if (!this.cancelTimer) this.cancelTimer = this.schedule();
    });
  }

  private flush(): void {
    this.clearTimer();
    while (this.pending.length > 0 && this.inFlight < this.options.maxInFlight) {
      void this.runGroup(this.pending.splice(0, this.options.maxSize));
    }
  }

  private async runGroup(group: Pending<I, O>[]): Promise<void> {
    this.inFlight++;
    try {
      const results = await this.runChecked(group.map((p) => p.item));
      group.forEach((p, i) => p.resolve(results[i]!));
    } catch (err) {
      if (group.length === 1) group[0]!.reject(err);
      else await Promise.all(group.map((p) => this.runChecked([p.item]).then(([r]) => p.resolve(r!), p.reject)));
    } finally {
      this.inFlight--;
      // Items that arrived while this group ran have waited long enough.
      if (this.pending.length > 0) this.flush();
    }
  }

  private async runChecked(items: I[]): Promise<O[]> {
    const results = await this.run(items);
    if (results.length !== items.length) throw new Error(`a group of ${items.length} got ${results.length} results`);
    return results;
  }

  private schedule(): () => void {
    if (this.options.windowMs > 0) {
      const timer = setTimeout(() => this.flush(), this.options.windowMs);
      return () => clearTimeout(timer);
    }
    const immediate = setImmediate(() => this.flush());
    return () => clearImmediate(immediate);
  }

  private clearTimer(): void {
    this.cancelTimer?.();
    this.cancelTimer = null;
  }
}
