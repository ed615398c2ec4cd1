/** Epoch seconds, the spec's `created` (client-required integer). */
export const epochSeconds = (d: Date): number => Math.floor(d.getTime() / 1000);
