/** A resource's progress as a subscriber sees it: its state, and how far it has got. */
export interface ProgressState {
  status: string;
}

/**
 * A progress subscription's stream: the state read when it started, then the events that move
 * it on, until one ends it (a status other than `in_progress`).
 *
 * Events can arrive older than what the subscriber was already shown. The state is read after
 * subscribing, so events published before that read may still be queued behind it. And two
 * items finishing at once publish after their commits, in either order. So an event is passed on
 * only when it changes the status or `advance` says it is further than the last one shown.
 * `advance` must grow whenever the state moves on: a sum of counters that only grow does (an older
 * state's sum is never larger). A progress bar then never goes back, and no state is shown twice.
 *
 * @example
 * yield* progressStream(current, events, (e) => e.completed + e.failed);
 */
export async function* progressStream<T extends ProgressState>(
  current: T,
  events: AsyncIterable<unknown>,
  advance: (state: T) => number,
): AsyncGenerator<T> {
  yield current;
  if (current.status !== 'in_progress') return;
  let last = current;
  for await (const value of events) {
    const event = value as T;
    if (event.status === last.status && advance(event) <= advance(last)) continue;
    yield event;
    if (event.status !== 'in_progress') return;
    last = event;
  }
}
