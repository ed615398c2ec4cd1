import { randomUUID } from 'node:crypto';
import { existsSync, mkdirSync, renameSync, rmSync } from 'node:fs';
import { mkdir, open } from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';

/**
 * Objects up to this size that are not flushed are written with synchronous system calls into
 * files and directories made ahead of time (StagingReserve): a page's markdown or HTML, tens of
 * KB, then costs the request a few page-cache copies and renames, no inode allocation (0.2-1 ms
 * each on some file systems) and no thread-pool round trips.
 */
const SYNC_WRITE_MAX_BYTES = 256 * 1024;
/** Empty files and directories kept ready in staging, refilled when half are used. */
const RESERVE_SIZE = 16;

/** A body that takes the synchronous path: in memory, small, within `maxBytes` (else null). */
export function smallBody(body: Buffer | string | Readable, maxBytes: number | undefined): Buffer | null {
  if (typeof body !== 'string' && !Buffer.isBuffer(body)) return null;
  // A string's UTF-8 size is at most 3 bytes per UTF-16 unit: skip the encoding when too long.
  if (typeof body === 'string' && body.length > SYNC_WRITE_MAX_BYTES) return null;
  const bytes = typeof body === 'string' ? Buffer.from(body, 'utf8') : body;
  if (bytes.length > SYNC_WRITE_MAX_BYTES || (maxBytes !== undefined && bytes.length > maxBytes)) return null;
  return bytes;
}

/** The two directory operations of publishing, on the thread pool or on this thread. */
export interface PublishOps {
  mkdir(dir: string): unknown;
  rename(from: string, to: string): unknown;
}

/** Reserves of this thread, emptied when it exits (a thread that stops leaves no spares). */
const liveReserves = new Set<StagingReserve>();
let exitHookSet = false;

/**
 * Empty files and directories made ahead of time in staging (`reserve-*.file`, `reserve-*.dir`),
 * on the thread pool, from the first put on: a put writes into a spare file and renames a spare
 * directory into place as the object's parent, so it allocates no inode on the request's path.
 * Used only when objects are not flushed (a flushed write is slow anyway). The spares are
 * removed when the thread or process exits; those of a killed one are removed with the other
 * staging leftovers, after a day.
 */
export class StagingReserve {
  private readonly files: string[] = [];
  private readonly dirs: string[] = [];
  private filling = false;
  private closed = false;

  constructor(private readonly stagingDir: string) {
    liveReserves.add(this);
    if (!exitHookSet) {
      exitHookSet = true;
      process.once('exit', () => {
        for (const reserve of liveReserves) reserve.discard();
      });
    }
  }

  /** Removes the spares not used yet and stops making them (synchronous: also called on exit). */
  discard(): void {
    this.closed = true;
    liveReserves.delete(this);
    for (const spare of [...this.files.splice(0), ...this.dirs.splice(0)]) {
      try {
        rmSync(spare, { recursive: true, force: true });
      } catch {
        // Leftovers are removed after a day by any store's init.
      }
    }
  }

  /** A spare empty file, or undefined when none is ready (the caller writes a new one). */
  takeFile(): string | undefined {
    const file = this.files.pop();
    this.refill();
    return file;
  }

  /** Publishing with synchronous calls: the parent directory is a spare one renamed into place. */
  readonly syncOps: PublishOps = {
    mkdir: (dir) => {
      const spare = this.dirs.pop();
      if (spare) {
        try {
          renameSync(spare, dir);
          return;
        } catch {
          // It exists already (or its parent does not): the spare stays for the next put.
          if (existsSync(spare)) this.dirs.push(spare);
        }
      }
      mkdirSync(dir, { recursive: true });
    },
    rename: renameSync,
  };

  /** Tops the reserve up in the background once half of it is used. */
  private refill(): void {
    if (this.closed || this.filling) return;
    if (this.files.length >= RESERVE_SIZE / 2 && this.dirs.length >= RESERVE_SIZE / 2) return;
    this.filling = true;
    void this.fill().finally(() => (this.filling = false));
  }

  /** Adds a spare just made, or removes it when the reserve was discarded meanwhile. */
  private keep(list: string[], spare: string): void {
    if (this.closed) rmSync(spare, { recursive: true, force: true });
    else list.push(spare);
  }

  private async fill(): Promise<void> {
    try {
      while (!this.closed && (this.files.length < RESERVE_SIZE || this.dirs.length < RESERVE_SIZE)) {
        if (this.files.length < RESERVE_SIZE) {
          const file = path.join(this.stagingDir, `reserve-${randomUUID()}.file`);
          await (await open(file, 'wx', 0o600)).close();
          this.keep(this.files, file);
        }
        if (this.dirs.length < RESERVE_SIZE) {
          const dir = path.join(this.stagingDir, `reserve-${randomUUID()}.dir`);
          await mkdir(dir);
          this.keep(this.dirs, dir);
        }
      }
    } catch {
      // Only an optimisation: puts write their own files while the reserve is empty.
    }
  }
}
