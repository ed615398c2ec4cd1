import { PostgreSqlPlatform } from '@mikro-orm/postgresql';
import { describe, expect, it } from 'vitest';
import { formatSql, type SqlValue } from '../../../src/db/sql.js';

// execLarge writes values into its SQL itself (fast) instead of through MikroORM: the statement
// must come out exactly as MikroORM (exec) would have written it.
const platform = new PostgreSqlPlatform();

const VALUES: SqlValue[] = [
  'plain',
  '',
  "it's",
  "''",
  'back\\slash',
  "both \\' and '\\",
  '\\\\',
  'ünïcödé — 漢字 😀',
  '$1 ? ?? \\? placeholders inside a value',
  'line\nbreak\ttab',
  0,
  -12.5,
  200,
  true,
  false,
  null,
];

describe('formatSql', () => {
  it('writes each value as MikroORM does, byte for byte', () => {
    for (const value of VALUES) {
      const sql = 'insert into t (a, b) values (?, to_tsvector(?))';
      expect(formatSql(sql, [value, value])).toBe(platform.formatQuery(sql, [value, value]));
    }
    const big = "a page's text \\ ".repeat(2000);
    expect(formatSql('select ?, ?', [big, 'x'])).toBe(platform.formatQuery('select ?, ?', [big, 'x']));
  });

  it('refuses a count of values that does not match the placeholders, and numbers SQL cannot hold', () => {
    expect(() => formatSql('select ?, ?', ['a'])).toThrow(/2 placeholders for 1 values/);
    expect(() => formatSql('select ?', [Number.NaN])).toThrow(/not a number/);
  });
});
