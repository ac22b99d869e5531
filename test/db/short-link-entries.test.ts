// The short links' cache is bounded by the memory its targets hold, not by their number: a code
// with many rules compiled holds thousands of times what a plain URL code does.
import { describe, expect, it } from 'vitest';
import { ApiKeysRepository } from '../../src/db/accounts/api-keys-repository.ts';
import { QrItemsRepository, type ShortLinkTarget } from '../../src/db/qr-items/qr-items-repository.ts';
import { CachedShortLinks } from '../../src/db/short-links/short-link-cache.ts';
import { shortLinkEntries } from '../../src/db/short-links/short-link-entries.ts';
import { resolveDesign } from '../../src/domain/design/design.ts';
import { checkRules } from '../../src/domain/dynamic/check-rules.ts';
import { NO_DYNAMIC } from '../../src/domain/dynamic/dynamic-settings.ts';
import { ON_POSTGRES } from '../support/databases.ts';
import { openFreshDatabase } from '../support/fresh-database.ts';

const target = (code: string, approxBytes: number) => ({ code, approxBytes }) as ShortLinkTarget;

describe('shortLinkEntries', () => {
  it('keeps what fits its budget, dropping the oldest first', () => {
    const entries = shortLinkEntries(10_000);
    for (let i = 0; i < 10; i++) entries.set(`c${i}`, target(`c${i}`, 1_000));
    expect(entries.size).toBe(10);
    expect(entries.weight).toBe(10_000);
    entries.set('big', target('big', 1_250)); // an eighth of the budget: the largest kept
    expect(entries.weight).toBeLessThanOrEqual(10_000);
    expect(entries.has('c0')).toBe(false);
    expect(entries.has('c1')).toBe(false);
    expect(entries.has('c2')).toBe(true);
    expect(entries.get('big')?.approxBytes).toBe(1_250);
  });

  it('counts an absent code by its length, and tells it apart from one not cached', () => {
    const entries = shortLinkEntries(100_000);
    entries.set('gone', null);
    expect(entries.get('gone')).toBeNull();
    expect(entries.get('never')).toBeUndefined();
    const short = entries.weight;
    expect(short).toBeGreaterThan(0);
    entries.set('x'.repeat(1_000), null);
    expect(entries.weight - short).toBeGreaterThan(2_000);
  });

  it('does not let one target larger than an eighth of the budget flush the rest', () => {
    const entries = shortLinkEntries(8_000);
    entries.set('a', target('a', 1_000));
    entries.set('huge', target('huge', 1_001));
    expect(entries.has('huge')).toBe(false);
    expect(entries.has('a')).toBe(true);
    entries.set('edge', target('edge', 1_000));
    expect(entries.has('edge')).toBe(true);
  });

  it('refuses a budget below a byte', () => {
    expect(() => shortLinkEntries(0)).toThrow(RangeError);
  });
});

describe.skipIf(ON_POSTGRES)('the short links cache counts what a code holds', () => {
  it('holds far fewer codes with 25 rules than plain ones in the same budget, and never more than it', async () => {
    const db = await openFreshDatabase();
    const accountId = await new ApiKeysRepository(db).ensureAccount('cache');
    const items = new QrItemsRepository(db);
    const design = resolveDesign(undefined);
    const conditions = (i: number) => [
      { type: 'os', op: 'in', values: ['android', 'windows'] },
      { type: 'country', op: 'not_in', values: ['US', 'GB', 'FR'] },
      { type: 'query', op: 'in', key: `k${i}`, values: Array.from({ length: 50 }, (_, k) => `value-${k}`) },
    ];
    const rules = checkRules(
      Array.from({ length: 25 }, (_, i) => ({ name: `r${i}`, conditions: conditions(i), destination: `https://e.example/${i}` })),
    );
    const plain = await items.createMany(
      accountId,
      Array.from({ length: 200 }, (_, i) => ({
        title: `p${i}`,
        contentType: 'url' as const,
        payload: `https://e.example/p${i}`,
        fields: {},
        design,
      })),
    );
    const ruled = await items.createMany(
      accountId,
      Array.from({ length: 20 }, (_, i) => ({
        title: `r${i}`,
        contentType: 'url' as const,
        payload: 'https://e.example/',
        fields: {},
        design,
        dynamic: { ...NO_DYNAMIC, rules },
      })),
    );
    const plainBytes = (await items.findByCode(plain[0]!.code))!.approxBytes;
    const ruledBytes = (await items.findByCode(ruled[0]!.code))!.approxBytes;
    // Estimated (routingBytes): 25 rules with 50 values each count over a hundred plain codes.
    expect(plainBytes).toBeLessThan(1_000);
    expect(ruledBytes).toBeGreaterThan(100 * plainBytes);

    const budget = 10 * ruledBytes;
    const links = new CachedShortLinks(items, budget);
    for (const item of plain) expect((await links.resolve(item.code))?.id).toBe(item.id);
    expect(links.cacheStats()).toMatchObject({ entries: 200, misses: 200, hits: 0 });
    for (const item of ruled) {
      expect((await links.resolve(item.code))?.id).toBe(item.id);
      expect(links.cacheStats().bytes).toBeLessThanOrEqual(budget);
    }
    expect(links.cacheStats().entries).toBeLessThan(20);
    // The last ruled code is held, and a second lookup is a hit.
    await links.resolve(ruled.at(-1)!.code);
    expect(links.cacheStats()).toMatchObject({ misses: 220, hits: 1 });
    // A cached code answers from memory: a change behind the cache's back is not seen until dropped.
    const last = ruled.at(-1)!;
    await db.kysely.updateTable('qr_items').set({ payload: 'https://e.example/changed' }).where('id', '=', last.id).execute();
    expect((await links.resolve(last.code))?.payload).toBe('https://e.example/');
    await links.invalidate([last.code]);
    expect((await links.resolve(last.code))?.payload).toBe('https://e.example/changed');
  });
});
