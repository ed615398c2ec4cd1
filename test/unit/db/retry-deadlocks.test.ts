import { describe, expect, it } from 'vitest';
import { retryDeadlocks } from '../../../src/db/sql.js';

const deadlock = () => Object.assign(new Error('deadlock detected'), { code: '40P01' });

describe('retryDeadlocks', () => {
  it('runs a transaction Postgres rolled back as a deadlock victim again', async () => {
    let runs = 0;
    const result = await retryDeadlocks(async () => {
      runs++;
      if (runs < 3) throw deadlock();
      return 'done';
    });
    expect(result).toBe('done');
    expect(runs).toBe(3);
  });

  it('throws the third deadlock, and any other error at once', async () => {
    let runs = 0;
    await expect(
      retryDeadlocks(async () => {
        runs++;
        throw deadlock();
      }),
    ).rejects.toMatchObject({ code: '40P01' });
    expect(runs).toBe(3);
    runs = 0;
    await expect(
      retryDeadlocks(async () => {
        runs++;
        throw Object.assign(new Error('unique violation'), { code: '23505' });
      }),
    ).rejects.toThrow('unique violation');
    expect(runs).toBe(1);
  });
});
