import type { FrontierRow } from './crawl-rows.js';
import { HostGate } from './host-gate.js';

/**
 * When each claimed URL may be fetched: URLs wait in their host's line until the HostGate gives
 * them a slot (and their time has come), then become ready for the engine. Timers are owned
 * here, so ending a run stops every pending one.
 */
export class HostScheduler {
  private readonly gate: HostGate;
  private readonly waiting = new Map<string, FrontierRow[]>();
  private readonly ready: FrontierRow[] = [];
  private readonly gaps = new Map<string, number>();
  private readonly holding = new Set<string>();
  private readonly timers = new Set<NodeJS.Timeout>();
  private closed = false;

  constructor(hostConcurrency: number, hostDelayMs: number) {
    this.gate = new HostGate(hostConcurrency, hostDelayMs);
  }

  /** Puts a URL in its host's line; `gapMs` is the host's Crawl-delay. */
  enqueue(row: FrontierRow, gapMs: number): void {
    const host = hostOf(row);
    this.gaps.set(row.id, gapMs);
    const line = this.waiting.get(host) ?? [];
    line.push(row);
    this.waiting.set(host, line);
    this.pump(host);
  }

  /** The next URL whose host has let it go. */
  take(): FrontierRow | null {
    return (this.closed ? undefined : this.ready.shift()) ?? null;
  }

  /** The URL's fetch is over (or it goes back to wait for a retry): its host slot is free again. */
  release(row: FrontierRow): void {
    const gap = this.gaps.get(row.id);
    this.gaps.delete(row.id);
    if (!this.holding.delete(row.id)) return;
    const host = hostOf(row);
    this.gate.release(host, gap);
    this.pump(host);
  }

  /** Runs `fn` after `ms` unless the scheduler is closed first. */
  later(ms: number, fn: () => void): void {
    if (this.closed) return;
    const timer = setTimeout(() => {
      this.timers.delete(timer);
      if (!this.closed) fn();
    }, ms);
    this.timers.add(timer);
  }

  close(): void {
    this.closed = true;
    for (const timer of this.timers) clearTimeout(timer);
    this.timers.clear();
    this.ready.length = 0;
    this.waiting.clear();
  }

  private pump(host: string): void {
    const line = this.waiting.get(host);
    while (line && line.length > 0 && !this.closed) {
      const at = this.gate.reserve(host, this.gaps.get(line[0]!.id));
      if (at === null) return;
      const row = line.shift()!;
      this.holding.add(row.id);
      if (at <= Date.now()) this.ready.push(row);
      else this.later(at - Date.now(), () => this.ready.push(row));
    }
    if (line?.length === 0) this.waiting.delete(host);
  }
}

function hostOf(row: FrontierRow): string {
  return new URL(row.url).host;
}
