// The array literals the PostgreSQL scan writer sends: their text, and (on PostgreSQL)
// that the server reads back exactly the values written, whatever the strings hold.
import fc from 'fast-check';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { booleanArray, integerArray, textArray } from '../../src/db/postgres/pg-array-literal.ts';
import { ON_POSTGRES, TEST_DATABASE_URL } from '../support/databases.ts';

describe('PostgreSQL array literals', () => {
  it('quotes every text element, escapes quotes and backslashes, and writes NULL bare', () => {
    expect(textArray([])).toBe('{}');
    expect(textArray(['a', null, '', 'NULL', 'x,y}', 'say "hi"', 'C:\\dir'])).toBe(
      '{"a",NULL,"","NULL","x,y}","say \\"hi\\"","C:\\\\dir"}',
    );
    // Without NULL or anything to escape, one join: the same text.
    expect(textArray(['a', '', 'NULL', 'x,y}'])).toBe('{"a","","NULL","x,y}"}');
    // Something to escape only after many plain elements, and undefined written as NULL.
    const long = [...Array.from({ length: 1_000 }, (_, i) => `v${i}`), 'say "hi"', undefined];
    expect(textArray(long)).toBe(
      `{${long
        .slice(0, 1_000)
        .map((v) => `"${v}"`)
        .join(',')},"say \\"hi\\"",NULL}`,
    );
    expect(integerArray([1, -2, 1_900_000])).toBe('{1,-2,1900000}');
    expect(booleanArray([true, false])).toBe('{t,f}');
  });

  it('refuses a number that is not an integer', () => {
    expect(() => integerArray([1.5])).toThrow(TypeError);
    expect(() => integerArray([Number.NaN])).toThrow(TypeError);
  });

  it.runIf(ON_POSTGRES)('round-trips through PostgreSQL', async () => {
    const client = new pg.Client({ connectionString: TEST_DATABASE_URL ?? undefined });
    await client.connect();
    try {
      // PostgreSQL text cannot hold NUL; everything else must come back unchanged.
      const text = fc.string({ unit: 'grapheme', maxLength: 12 }).filter((s) => !s.includes('\0'));
      const tricky = fc.constantFrom('', 'NULL', 'null', ' ', ' x ', '"', '\\', '{', '}', ',', '{"a",b}', '\\"', 'ü€😀');
      await fc.assert(
        fc.asyncProperty(
          fc.array(fc.option(fc.oneof(text, tricky), { nil: null }), { maxLength: 8 }),
          fc.array(fc.integer({ min: -(2 ** 40), max: 2 ** 40 }), { maxLength: 8 }),
          fc.array(fc.boolean(), { maxLength: 8 }),
          async (texts, ints, bools) => {
            const { rows } = await client.query<{ t: (string | null)[]; i: string[]; b: boolean[] }>(
              'select $1::text[] as t, $2::bigint[] as i, $3::boolean[] as b',
              [textArray(texts), integerArray(ints), booleanArray(bools)],
            );
            expect(rows[0]!.t).toEqual(texts);
            expect(rows[0]!.i.map(Number)).toEqual(ints);
            expect(rows[0]!.b).toEqual(bools);
          },
        ),
        { numRuns: 300 },
      );
    } finally {
      await client.end();
    }
  });
});
