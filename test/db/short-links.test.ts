// Short-link caches dropping codes: packed into notifications under PostgreSQL's payload
// limit, and a batch of changed codes dropped in every other process (PostgreSQL).
import { describe, expect, it, onTestFinished } from 'vitest';
import { ApiKeysRepository } from '../../src/db/accounts/api-keys-repository.ts';
import { PostgresShortLinks, packCodes } from '../../src/db/short-links/postgres-short-links.ts';
import { QrItemsRepository } from '../../src/db/qr-items/qr-items-repository.ts';
import { resolveDesign } from '../../src/domain/design/design.ts';
import { generateShortCode } from '../../src/domain/qr-items/short-code.ts';
import { ON_POSTGRES } from '../support/databases.ts';
import { freshDatabase } from '../support/fresh-database.ts';

describe('packCodes', () => {
  it('keeps every code, in order, in payloads below the limit', () => {
    const codes = Array.from({ length: 2_000 }, () => generateShortCode());
    const payloads = packCodes(codes);
    expect(payloads.length).toBe(3); // 2,000 × 8 characters in payloads of at most 7,000
    for (const p of payloads) expect(p.length).toBeLessThanOrEqual(7_000);
    expect(payloads.flatMap((p) => p.split(' '))).toEqual(codes);
  });

  it('sends nothing for no codes and one payload for one code', () => {
    expect(packCodes([])).toEqual([]);
    expect(packCodes(['abcDEF1'])).toEqual(['abcDEF1']);
  });
});

describe.runIf(ON_POSTGRES)('PostgresShortLinks', () => {
  it('drops a batch of codes in another process, over several notifications', async () => {
    const fresh = await freshDatabase();
    const { url } = fresh;
    const open = () => fresh.open();
    const [dbA, dbB] = [await open(), await open()];
    const linksFor = async (db: typeof dbA) => {
      const links = new PostgresShortLinks(new QrItemsRepository(db), db.pool!, url, 1024 * 1024);
      await links.start();
      onTestFinished(() => links.close());
      return links;
    };
    const [a, b] = [await linksFor(dbA), await linksFor(dbB)];
    const accountId = await new ApiKeysRepository(dbA).ensureAccount('links');
    const design = resolveDesign(undefined);
    const items = await new QrItemsRepository(dbA).createMany(
      accountId,
      Array.from({ length: 1_200 }, (_, i) => ({
        title: `t${i}`,
        contentType: 'url',
        payload: `https://e.example/${i}`,
        fields: {},
        design,
      })),
    );
    const codes = items.map((i) => i.code);
    expect(packCodes(codes).length).toBeGreaterThan(1);
    for (const code of codes) expect((await a.resolve(code))?.active).toBe(true);
    // Paused behind the caches' back: A still answers from memory until told.
    await dbB.pool!.query('update qr_items set active = false');
    expect((await a.resolve(codes[0]!))?.active).toBe(true);

    await b.invalidate(codes);
    await expect
      .poll(async () => (await Promise.all(codes.map((c) => a.resolve(c)))).filter((t) => t?.active).length, {
        timeout: 5_000,
        interval: 50,
      })
      .toBe(0);
  });
});
