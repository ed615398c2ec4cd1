/**
 * Per-host politeness within one crawl: at most `concurrency` fetches to a host at once, and
 * with a gap (the larger of CRAWL_HOST_DELAY_MS and robots.txt's Crawl-delay) one fetch at a
 * time, the next starting no sooner than the gap after the previous one ended. Counting from
 * the end rather than the start keeps requests at least the gap apart as the server sees them,
 * however long a fetch waited in between. Hosts are independent.
 *
 * @example
 * const gate = new HostGate(4, 0);
 * const at = gate.reserve('a.example', 1000); // epoch ms it may start; null: the host is busy
 * gate.release('a.example', 1000);            // when its outcome is recorded
 */
export class HostGate {
  private readonly active = new Map<string, number>();
  private readonly nextStart = new Map<string, number>();

  constructor(
    private readonly concurrency: number,
    private readonly minGapMs: number,
  ) {}

  /** Takes a slot: the epoch ms at which the fetch may start, or null when the host is at its limit. */
  reserve(host: string, gapMs = 0, now = Date.now()): number | null {
    const active = this.active.get(host) ?? 0;
    if (active >= (this.gapOf(gapMs) > 0 ? 1 : this.concurrency)) return null;
    this.active.set(host, active + 1);
    return Math.max(now, this.nextStart.get(host) ?? now);
  }

  /** A fetch to `host` is over: the next may not start before the gap has passed from now. */
  release(host: string, gapMs = 0, now = Date.now()): void {
    const gap = this.gapOf(gapMs);
    if (gap > 0) this.nextStart.set(host, Math.max(this.nextStart.get(host) ?? 0, now + gap));
    const active = (this.active.get(host) ?? 1) - 1;
    if (active <= 0) this.active.delete(host);
    else this.active.set(host, active);
  }

  private gapOf(gapMs: number): number {
    return Math.max(this.minGapMs, gapMs);
  }
}
