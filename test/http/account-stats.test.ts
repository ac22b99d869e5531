// The account overview (/v1/stats), the CSV exports and the live poll, on the project's
// database (SQLite, and PostgreSQL in the "postgres" project). The account's numbers are
// checked against the sums of its codes' own stats, which are tested on their own.
import { parse } from 'csv-parse/sync';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { backfillAccountRollups } from '../../src/db/migrations/0004-account-rollups.ts';
import { createSeedingWriter } from '../../src/db/scans/scan-writer.ts';
import type { ScanEvent } from '../../src/domain/scans/scan-batch.ts';
import { type TestApp, makeTestApp } from '../support/test-app.ts';

const DAY = 86_400_000;
const IPHONE =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1';

let t: TestApp;
let key: string;
let accountId: string;

interface Stats {
  from: string;
  to: string;
  totals: Record<string, number>;
  daily: { date: string; scans: number; uniqueScans: number }[];
  breakdown: Record<string, { value: string; scans: number }[]>;
  recent: { scannedAt: string }[];
}
interface AccountStats extends Omit<Stats, 'recent'> {
  topCodes: { id: string; code: string; title: string; active: boolean; scans: number; uniqueScans: number }[];
}

beforeAll(async () => {
  t = await makeTestApp();
  key = await t.key('overview');
  accountId = await t.services.keys.ensureAccount('overview');
});
afterAll(() => t.close());

async function item(title: string, k = key) {
  const res = await t.request({
    method: 'POST',
    url: '/v1/qr',
    key: k,
    payload: { title, url: 'https://example.com/' + encodeURIComponent(title) },
  });
  expect(res.statusCode, res.body).toBe(201);
  return res.json().item as { id: string; code: string };
}

async function get<T>(url: string, k = key): Promise<T> {
  const res = await t.request({ method: 'GET', url, key: k });
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as T;
}

/** Deterministic scans of one item over the last `spanDays` days: phones, a desktop, some bots, repeat visitors. */
function scansOf(itemId: string, account: string, n: number, spanDays: number, seed: number): ScanEvent[] {
  const now = Date.now();
  let s = seed;
  const rnd = () => (s = (s * 1_103_515_245 + 12_345) % 2_147_483_648) / 2_147_483_648;
  const pick = <T>(a: readonly T[]) => a[Math.floor(rnd() * a.length)] as T;
  return Array.from({ length: n }, () => ({
    itemId,
    accountId: account,
    scannedAt: new Date(now - Math.floor(rnd() * spanDays * DAY)).toISOString(),
    isBot: rnd() < 0.1,
    device: pick(['mobile', 'mobile', 'tablet', 'desktop']),
    os: pick(['iOS', 'Android', null]),
    browser: pick(['Safari', 'Chrome', 'Samsung Internet']),
    country: pick(['DE', 'US', 'FR', null]),
    referrer: pick([null, 't.co', 'www.instagram.com']),
    visitorHash: `v${Math.floor(rnd() * 40)}`,
  }));
}

async function record(scans: ScanEvent[]) {
  const writer = createSeedingWriter(t.db);
  await Promise.all(scans.map((s) => writer.record(s)));
  await writer.drain();
}

function sumBreakdowns(all: Stats[]): Record<string, { value: string; scans: number }[]> {
  const out: Record<string, Map<string, number>> = {};
  for (const s of all) {
    for (const [dim, rows] of Object.entries(s.breakdown)) {
      const m = (out[dim] ??= new Map());
      for (const r of rows) m.set(r.value, (m.get(r.value) ?? 0) + r.scans);
    }
  }
  return Object.fromEntries(
    Object.entries(out).map(([dim, m]) => [
      dim,
      [...m].map(([value, scans]) => ({ value, scans })).sort((a, b) => b.scans - a.scans || a.value.localeCompare(b.value)),
    ]),
  );
}

describe('account stats', () => {
  let codes: { id: string; code: string }[];

  beforeAll(async () => {
    codes = [await item('Menu'), await item('Poster'), await item('Flyer')];
    await record([
      ...scansOf(codes[0]!.id, accountId, 400, 100, 1),
      ...scansOf(codes[1]!.id, accountId, 150, 20, 2),
      ...scansOf(codes[2]!.id, accountId, 60, 3, 3),
    ]);
  });

  for (const [days, tz] of [
    [7, 'UTC'],
    [30, 'Europe/Berlin'],
    [90, 'America/New_York'],
    [1, 'Pacific/Kiritimati'],
  ] as const) {
    it(`equals the sum of its codes' stats over ${days} days in ${tz}`, async () => {
      const qs = `?days=${days}&tz=${encodeURIComponent(tz)}`;
      const account = await get<AccountStats>(`/v1/stats${qs}`);
      const perItem = await Promise.all(codes.map((c) => get<Stats>(`/v1/qr/${c.id}/stats${qs}`)));
      expect(account).toMatchObject({ days, tz, from: perItem[0]!.from, to: perItem[0]!.to });
      expect(account.daily.map((d) => d.date)).toEqual(perItem[0]!.daily.map((d) => d.date));
      account.daily.forEach((d, i) => {
        expect(d.scans).toBe(perItem.reduce((n, s) => n + s.daily[i]!.scans, 0));
        expect(d.uniqueScans).toBe(perItem.reduce((n, s) => n + s.daily[i]!.uniqueScans, 0));
      });
      expect(account.totals.scansInRange).toBe(perItem.reduce((n, s) => n + s.totals.scansInRange!, 0));
      expect(account.totals.uniqueScansInRange).toBe(perItem.reduce((n, s) => n + s.totals.uniqueScansInRange!, 0));
      expect(account.totals.codes).toBe(3);
      expect(account.breakdown).toEqual(sumBreakdowns(perItem));
      // A code's scans in the top list cover the same UTC days as its breakdowns.
      const expected = codes
        .map((c, i) => ({ id: c.id, scans: perItem[i]!.breakdown.device!.reduce((n, r) => n + r.scans, 0) }))
        .filter((c) => c.scans > 0)
        // Ties (likely over one day: a few scans each) are ordered by id, as the API documents.
        .sort((a, b) => b.scans - a.scans || (a.id < b.id ? -1 : 1));
      expect(account.topCodes.map((c) => ({ id: c.id, scans: c.scans }))).toEqual(expected);
      expect(account.topCodes.length).toBeGreaterThan(0);
    });
  }

  it('counts bots apart, in the range only', async () => {
    const account = await get<AccountStats>('/v1/stats?days=90');
    const rows = await t.db.kysely
      .selectFrom('scans')
      .select(['scanned_at', 'is_bot'])
      .where(
        'item_id',
        'in',
        codes.map((c) => c.id),
      )
      .execute();
    const from = Date.parse(`${account.from}T00:00:00Z`);
    const bots = rows.filter((r) => Boolean(r.is_bot) && new Date(r.scanned_at).getTime() >= from).length;
    expect(account.totals.botScansInRange).toBe(bots);
    expect(bots).toBeGreaterThan(0);
  });

  it("gives each top code its unique scans of the range's days", async () => {
    const account = await get<AccountStats>('/v1/stats?days=14');
    const rows = await t.db.kysely.selectFrom('scan_visitors').select(['item_id', 'day']).execute();
    const fromDay = account.from;
    for (const c of account.topCodes) {
      expect(c.uniqueScans).toBe(rows.filter((r) => r.item_id === c.id && r.day >= fromDay).length);
      expect(c.uniqueScans).toBeGreaterThan(0);
      expect(c.uniqueScans).toBeLessThanOrEqual(c.scans);
    }
  });

  it('lists at most `top` codes, most scanned first', async () => {
    const account = await get<AccountStats>('/v1/stats?days=90&top=2');
    expect(account.topCodes).toHaveLength(2);
    expect(account.topCodes[0]!.scans).toBeGreaterThanOrEqual(account.topCodes[1]!.scans);
    expect(account.topCodes[0]).toMatchObject({ title: 'Menu', code: codes[0]!.code, active: true });
  });

  it('builds the same roll-ups from the per-item ones as the scan writers keep (the migration backfill)', async () => {
    const snapshot = async () => ({
      buckets: await sql`select account_id, bucket, scans, unique_scans, bot_scans from account_buckets order by 1, 2`.execute(t.db.kysely),
      dims: await sql`select account_id, day, dim, value, scans from account_dims_daily order by 1, 2, 3, 4`.execute(t.db.kysely),
      running: await sql`select item_id, day, scans, unique_scans from item_running_totals order by 1, 2`.execute(t.db.kysely),
    });
    const kept = await snapshot();
    expect(kept.running.rows.length).toBeGreaterThan(50);
    await sql`delete from account_buckets`.execute(t.db.kysely);
    await sql`delete from account_dims_daily`.execute(t.db.kysely);
    await sql`delete from item_running_totals`.execute(t.db.kysely);
    await backfillAccountRollups(t.db.kysely as never, t.db.codec.dialect);
    const rebuilt = await snapshot();
    const plain = (r: { rows: unknown[] }) =>
      JSON.parse(JSON.stringify(r.rows, (_k, v: unknown) => (typeof v === 'bigint' ? Number(v) : v)));
    expect(plain(rebuilt.buckets)).toEqual(plain(kept.buckets));
    expect(plain(rebuilt.dims)).toEqual(plain(kept.dims));
    expect(plain(rebuilt.running).map(numbers)).toEqual(plain(kept.running).map(numbers));
  });
});

/** PostgreSQL answers bigint sums as strings. */
function numbers(row: Record<string, unknown>) {
  return Object.fromEntries(Object.entries(row).map(([k, v]) => [k, typeof v === 'string' && /^\d+$/.test(v) ? Number(v) : v]));
}

describe('breakdowns in other time zones, through HTTP', () => {
  it('add up to the scans of the range, not of the UTC days around it', async () => {
    // Kiritimati is UTC+14 and Pago Pago UTC-11: today's local midnight is always inside a UTC day.
    const k = await t.key('zones');
    const acc = await t.services.keys.ensureAccount('zones');
    const code = await item('Zones', k);
    const now = Date.now();
    await record(
      Array.from({ length: 96 }, (_, i) => ({
        itemId: code.id,
        accountId: acc,
        scannedAt: new Date(now - i * 30 * 60_000).toISOString(),
        isBot: false,
        device: i % 2 ? 'mobile' : 'desktop',
        os: 'iOS',
        browser: 'Safari',
        country: `C${i % 5}`,
        referrer: null,
        visitorHash: `z${i}`,
      })),
    );
    for (const tz of ['Pacific/Kiritimati', 'Pacific/Pago_Pago', 'Asia/Kathmandu']) {
      for (const days of [1, 2]) {
        const stats = await get<Stats>(`/v1/qr/${code.id}/stats?days=${days}&tz=${encodeURIComponent(tz)}`, k);
        const account = await get<AccountStats>(`/v1/stats?days=${days}&tz=${encodeURIComponent(tz)}`, k);
        for (const [label, s] of [
          ['item', stats],
          ['account', account],
        ] as const) {
          for (const dim of ['device', 'country'] as const) {
            expect(
              s.breakdown[dim]!.reduce((n, r) => n + r.scans, 0),
              `${label} ${tz} days=${days} ${dim}`,
            ).toBe(s.totals.scansInRange);
          }
        }
        expect(
          account.topCodes.map((c) => c.scans),
          `${tz} days=${days}`,
        ).toEqual([stats.totals.scansInRange]);
      }
    }
  });
});

describe('account stats over time', () => {
  it('counts in the top list only the scans of the range, also for a batch that spans midnight', async () => {
    const k = await t.key('midnight');
    const acc = await t.services.keys.ensureAccount('midnight');
    const old = await item('Old', k);
    const today = new Date();
    const midnight = Date.UTC(today.getUTCFullYear(), today.getUTCMonth(), today.getUTCDate());
    const ev = (at: number, hash: string): ScanEvent => ({
      itemId: old.id,
      accountId: acc,
      scannedAt: new Date(at).toISOString(),
      isBot: false,
      device: 'mobile',
      os: 'iOS',
      browser: 'Safari',
      country: 'DE',
      referrer: null,
      visitorHash: hash,
    });
    await record([ev(midnight - 40 * DAY, 'a'), ev(midnight - 40 * DAY + 1000, 'b')]);
    // One batch: two scans just before yesterday's end, one just after (crosses a UTC midnight).
    await record([ev(midnight - 1, 'c'), ev(midnight - 2, 'd'), ev(midnight + 1, 'c')]);
    const top = async (days: number) => (await get<AccountStats>(`/v1/stats?days=${days}`, k)).topCodes;
    expect(await top(1)).toEqual([expect.objectContaining({ id: old.id, scans: 1, uniqueScans: 1 })]);
    expect(await top(2)).toEqual([expect.objectContaining({ id: old.id, scans: 3, uniqueScans: 3 })]);
    expect(await top(90)).toEqual([expect.objectContaining({ id: old.id, scans: 5, uniqueScans: 5 })]);
    const running = await t.db.kysely.selectFrom('item_running_totals').selectAll().where('item_id', '=', old.id).orderBy('day').execute();
    expect(running.map((r) => [Number(r.scans), Number(r.unique_scans)])).toEqual([
      [2, 2],
      [4, 4],
      [5, 5],
    ]);
  });

  it("keeps a deleted code's scans in the series and breakdowns but not in the top list", async () => {
    const k = await t.key('cleanup');
    const acc = await t.services.keys.ensureAccount('cleanup');
    const [kept, gone] = [await item('Kept', k), await item('Gone', k)];
    await record([...scansOf(kept.id, acc, 30, 5, 7), ...scansOf(gone.id, acc, 20, 5, 8)]);
    const before = await get<AccountStats>('/v1/stats?days=7', k);
    const del = await t.request({ method: 'DELETE', url: `/v1/qr/${gone.id}`, key: k });
    expect(del.statusCode).toBe(200);
    const after = await get<AccountStats>('/v1/stats?days=7', k);
    expect(after.daily).toEqual(before.daily);
    expect(after.breakdown).toEqual(before.breakdown);
    expect(after.totals).toEqual({ ...before.totals, codes: 1 });
    expect(before.topCodes.map((c) => c.id).sort()).toEqual([kept.id, gone.id].sort());
    expect(after.topCodes.map((c) => c.id)).toEqual([kept.id]);
    // A scan batch that commits just after the delete writes the code's total again.
    await sql`insert into item_scan_totals (item_id, account_id, scans) values (${gone.id}, ${acc}, 1000)`.execute(t.db.kysely);
    expect((await get<AccountStats>('/v1/stats?days=7', k)).topCodes).toEqual(after.topCodes);
  });

  it('finds the top codes of the range behind hundreds of codes scanned more, but before it', async () => {
    const k = await t.key('walk');
    const acc = await t.services.keys.ensureAccount('walk');
    const res = await t.request({
      method: 'POST',
      url: '/v1/qr/batch',
      key: k,
      payload: { items: Array.from({ length: 330 }, (_, i) => ({ title: `W${i}`, url: `https://example.com/w/${i}` })) },
    });
    expect(res.statusCode, res.body).toBe(201);
    const ids = (res.json() as { items: { item: { id: string } }[] }).items.map((x) => x.item.id);
    const ev = (itemId: string, ago: number, n: number): ScanEvent => ({
      itemId,
      accountId: acc,
      scannedAt: new Date(Date.now() - ago).toISOString(),
      isBot: false,
      device: 'mobile',
      os: 'iOS',
      browser: 'Safari',
      country: 'DE',
      referrer: null,
      visitorHash: `h${n}`,
    });
    // 300 codes with 5 scans each 60 days ago; 30 with 1 to 4 scans (many ties) in the last hours.
    const old = ids.slice(0, 300).flatMap((id) => Array.from({ length: 5 }, (_, n) => ev(id, 60 * DAY, n)));
    const recent = ids.slice(300).flatMap((id, i) => Array.from({ length: (i % 4) + 1 }, (_, n) => ev(id, 3_600_000, n)));
    await record([...old, ...recent]);
    const expected = ids
      .slice(300)
      .map((id, i) => ({ id, scans: (i % 4) + 1 }))
      .sort((a, b) => b.scans - a.scans || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0))
      .slice(0, 10);
    const top = async (days: number) =>
      (await get<AccountStats>(`/v1/stats?days=${days}&top=10`, k)).topCodes.map((c) => ({ id: c.id, scans: c.scans }));
    expect(await top(7)).toEqual(expected);
    expect((await top(90)).map((c) => c.scans)).toEqual(Array(10).fill(5));
    // The totals the walk reads are the codes' own counters.
    const totals = await sql<{
      id: string;
      n: number;
    }>`select item_id as id, scans as n from item_scan_totals where account_id = ${acc} order by 1`.execute(t.db.kysely);
    const counters = await sql<{
      id: string;
      n: number;
    }>`select id, scan_count as n from qr_items where account_id = ${acc} and scan_count > 0 order by 1`.execute(t.db.kysely);
    expect(totals.rows.map(numbers)).toEqual(counters.rows.map(numbers));
    expect(totals.rows).toHaveLength(330);
  });

  it("never shows another account's scans", async () => {
    const k = await t.key('stranger');
    const empty = await get<AccountStats>('/v1/stats?days=90', k);
    expect(empty.totals).toEqual({ codes: 0, scansInRange: 0, uniqueScansInRange: 0, botScansInRange: 0 });
    expect(empty.daily.every((d) => d.scans === 0)).toBe(true);
    expect(empty.topCodes).toEqual([]);
    expect(empty.breakdown.country).toEqual([]);
  });

  it('counts scans recorded through the short link', async () => {
    const k = await t.key('live');
    const c = await item('Live', k);
    for (const ip of ['198.51.100.1', '198.51.100.2', '198.51.100.2']) {
      const res = await t.app.inject({ method: 'GET', url: `/r/${c.code}`, remoteAddress: ip, headers: { 'user-agent': IPHONE } });
      expect(res.statusCode).toBe(302);
    }
    const account = await get<AccountStats>('/v1/stats?days=1', k);
    expect(account.totals).toMatchObject({ scansInRange: 3, uniqueScansInRange: 2, botScansInRange: 0 });
    expect(account.topCodes).toEqual([expect.objectContaining({ id: c.id, scans: 3, uniqueScans: 2 })]);
    expect(account.breakdown.os).toEqual([{ value: 'iOS', scans: 3 }]);
  });
});

describe('account stats requests', () => {
  it('needs qr:read and answers 400 naming the field for bad values', async () => {
    const writeOnly = await t.key('overview', 'qr:write');
    expect((await t.request({ method: 'GET', url: '/v1/stats', key: writeOnly })).statusCode).toBe(403);
    expect((await t.request({ method: 'GET', url: '/v1/stats' })).statusCode).toBe(401);
    for (const [qs, message] of [
      ['days=0', 'days: must be an integer between 1 and 90'],
      ['days=91', 'days: must be an integer between 1 and 90'],
      ['top=0', 'top: must be an integer between 1 and 100'],
      ['top=101', 'top: must be an integer between 1 and 100'],
      ['tz=Mars/Olympus', 'tz: must be an IANA time zone such as Europe/Berlin'],
      ['colour=red', 'colour: is not a known field'],
    ]) {
      const res = await t.request({ method: 'GET', url: `/v1/stats?${qs}`, key });
      expect(res.statusCode, qs).toBe(400);
      expect(res.json(), qs).toEqual({ error: message });
    }
  });
});

describe('CSV exports', () => {
  let code: { id: string; code: string };

  beforeAll(async () => {
    const k = await t.key('csv');
    const acc = await t.services.keys.ensureAccount('csv');
    code = await item('=HYPERLINK("http://evil.example")', k);
    await record(scansOf(code.id, acc, 80, 10, 11).map((s, i) => (i === 0 ? { ...s, isBot: false, referrer: '-2+3.example' } : s)));
    key = k;
  });
  afterAll(async () => {
    key = await t.key('overview');
  });

  const csv = async (url: string) => {
    const res = await t.request({ method: 'GET', url, key });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['content-type']).toBe('text/csv; charset=utf-8');
    return { rows: parse(res.body, { columns: true }) as Record<string, string>[], res };
  };

  it("gives an item's daily series as CSV, the same numbers as the JSON", async () => {
    const json = await get<Stats>(`/v1/qr/${code.id}/stats?days=14&tz=Asia/Kolkata`);
    const { rows, res } = await csv(`/v1/qr/${code.id}/stats.csv?days=14&tz=Asia/Kolkata`);
    expect(res.body.split('\r\n')[0]).toBe('date,scans,unique_scans');
    expect(rows).toEqual(json.daily.map((d) => ({ date: d.date, scans: String(d.scans), unique_scans: String(d.uniqueScans) })));
    expect(res.headers['content-disposition']).toBe(`attachment; filename="qrtrack-${code.code}-daily-${json.from}-${json.to}.csv"`);
  });

  it("gives an item's breakdowns as CSV, with scanner-made values that look like formulas defused", async () => {
    const json = await get<Stats>(`/v1/qr/${code.id}/stats?days=14`);
    const { rows } = await csv(`/v1/qr/${code.id}/stats.csv?days=14&part=breakdown`);
    const expected = Object.entries(json.breakdown).flatMap(([dim, list]) =>
      list.map((r) => ({ dimension: dim, value: r.value.startsWith('-') ? `'${r.value}` : r.value, scans: String(r.scans) })),
    );
    expect(rows).toEqual(expected);
    expect(rows).toContainEqual({ dimension: 'referrer', value: "'-2+3.example", scans: '1' });
  });

  it("gives the account's daily series, breakdowns and top codes as CSV", async () => {
    const json = await get<AccountStats>('/v1/stats?days=30&top=100');
    expect((await csv('/v1/stats.csv?days=30')).rows).toEqual(
      json.daily.map((d) => ({ date: d.date, scans: String(d.scans), unique_scans: String(d.uniqueScans) })),
    );
    const breakdown = (await csv('/v1/stats.csv?days=30&part=breakdown')).rows;
    expect(breakdown.filter((r) => r.dimension === 'country')).toEqual(
      json.breakdown.country!.map((r) => ({ dimension: 'country', value: r.value, scans: String(r.scans) })),
    );
    const top = await csv('/v1/stats.csv?days=30&part=top');
    expect(top.rows).toEqual(
      json.topCodes.map((c) => ({
        id: c.id,
        code: c.code,
        title: `'${c.title}`,
        scans: String(c.scans),
        unique_scans: String(c.uniqueScans),
      })),
    );
    expect(top.res.headers['content-disposition']).toMatch(
      /^attachment; filename="qrtrack-account-top-\d{4}-\d\d-\d\d-\d{4}-\d\d-\d\d\.csv"$/,
    );
    // As many as asked, like ?top= on /v1/stats; both bounds.
    expect((await csv('/v1/stats.csv?days=30&part=top&top=1')).rows).toEqual(top.rows.slice(0, 1));
    expect((await csv('/v1/stats.csv?days=30&part=top&top=100')).rows).toEqual(top.rows);
    for (const bad of ['0', '101', 'x']) {
      const res = await t.request({ method: 'GET', url: `/v1/stats.csv?part=top&top=${bad}`, key });
      expect(res.json()).toEqual({ error: 'top: must be an integer between 1 and 100' });
    }
  });

  it('answers 400 for an unknown part and 404 for a missing item', async () => {
    const bad = await t.request({ method: 'GET', url: `/v1/qr/${code.id}/stats.csv?part=top`, key });
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toEqual({ error: 'part: must be one of daily, breakdown' });
    const missing = await t.request({ method: 'GET', url: '/v1/qr/3f1c6a2e-8e4b-4c1a-9d7e-2b5f0c9a1e11/stats.csv', key });
    expect(missing.statusCode).toBe(404);
  });
});

describe('live recent scans', () => {
  it('answers the counters and only the scans after `since`', async () => {
    const k = await t.key('poll');
    const c = await item('Poll', k);
    const first = await get<{ scanCount: number; lastScanAt: string | null; recent: unknown[] }>(`/v1/qr/${c.id}/recent`, k);
    expect(first).toEqual({ scanCount: 0, uniqueScanCount: 0, botScanCount: 0, lastScanAt: null, recent: [] });
    await t.app.inject({ method: 'GET', url: `/r/${c.code}`, remoteAddress: '192.0.2.1', headers: { 'user-agent': IPHONE } });
    const second = await get<{ scanCount: number; lastScanAt: string; recent: { scannedAt: string; os: string }[] }>(
      `/v1/qr/${c.id}/recent`,
      k,
    );
    expect(second).toMatchObject({ scanCount: 1, recent: [{ os: 'iOS', device: 'mobile' }] });
    const none = await get<{ recent: unknown[] }>(`/v1/qr/${c.id}/recent?since=${encodeURIComponent(second.lastScanAt)}`, k);
    expect(none.recent).toEqual([]);
    await new Promise((r) => setTimeout(r, 5));
    await t.app.inject({ method: 'GET', url: `/r/${c.code}`, remoteAddress: '192.0.2.2', headers: { 'user-agent': IPHONE } });
    const third = await get<{ scanCount: number; recent: unknown[] }>(
      `/v1/qr/${c.id}/recent?since=${encodeURIComponent(second.lastScanAt)}`,
      k,
    );
    expect(third).toMatchObject({ scanCount: 2 });
    expect(third.recent).toHaveLength(1);
  });

  it("answers 400 for a bad `since` and 404 for another account's item", async () => {
    const k = await t.key('poll');
    const c = await item('Mine', k);
    const bad = await t.request({ method: 'GET', url: `/v1/qr/${c.id}/recent?since=yesterday`, key: k });
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toEqual({ error: 'since: must be an ISO 8601 date-time' });
    const other = await t.key('someone-else');
    expect((await t.request({ method: 'GET', url: `/v1/qr/${c.id}/recent`, key: other })).statusCode).toBe(404);
  });

  it('documents every new route in the OpenAPI document', async () => {
    const doc = (await t.request({ method: 'GET', url: '/v1/openapi.json' })).json() as {
      paths: Record<string, Record<string, { responses: Record<string, { content?: Record<string, unknown> }> }>>;
    };
    expect(Object.keys(doc.paths)).toEqual(
      expect.arrayContaining(['/v1/stats', '/v1/stats.csv', '/v1/qr/{id}/stats.csv', '/v1/qr/{id}/recent']),
    );
    expect(Object.keys(doc.paths['/v1/stats.csv']!.get!.responses['200']!.content!)).toEqual(['text/csv']);
    expect(doc.paths['/v1/stats']!.get!.responses['200']!.content!['application/json']).toBeDefined();
  });
});
