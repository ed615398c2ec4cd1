import { describe, expect, it } from 'vitest';
import { idSuffix, newId, randomBase36 } from '../../src/ids.js';

describe('ids', () => {
  it('are typed, 20 base36 characters, and do not repeat across pool refills', () => {
    const seen = new Set<string>();
    // 10,000 ids draw ~210,000 bytes: the 4 KiB pool is refilled ~50 times.
    for (let i = 0; i < 10_000; i++) {
      const id = newId('scrape');
      expect(id).toMatch(/^scrape_[0-9a-z]{20}$/);
      seen.add(id);
    }
    expect(seen.size).toBe(10_000);
  });

  it('use every base36 character, at any length', () => {
    const text = Array.from({ length: 500 }, () => randomBase36(40)).join('');
    expect(new Set(text).size).toBe(36);
    expect(randomBase36(1)).toMatch(/^[0-9a-z]$/);
    expect(randomBase36(5000)).toHaveLength(5000);
    expect(idSuffix('scrape', 'scrape_abc')).toBe('abc');
  });
});
