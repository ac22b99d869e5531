import { StatsRepository } from '../../db/stats/stats-repository.ts';
import { DIMENSIONS } from '../../domain/stats/build-stats.ts';
import { itemStats } from '../../domain/stats/item-stats.ts';
import { defineCommand } from '../command.ts';
import { intOption, itemOf } from '../lookups.ts';
import { bar, sparkline, table } from '../terminal-charts.ts';

const TOP = 5;

export const stats = defineCommand({
  words: ['stats'],
  readsScans: true,
  synopsis: 'CODE_OR_ID [--days N] [--tz ZONE] [--json]',
  summary: 'scans of one QR code: totals, a daily sparkline, breakdowns, recent scans',
  details: `--days 1..90 (default 14), --tz an IANA time zone such as Europe/Berlin (default UTC): days are cut
at local midnight. --json prints the same body as GET /v1/qr/{id}/stats. Bots are counted apart.`,
  options: { days: { type: 'string' }, tz: { type: 'string' }, json: { type: 'boolean' } },
  async run({ values, positionals }, ctx) {
    const where = await itemOf(ctx, positionals[0], 'stats');
    const days = intOption('stats', 'days', values.days, 14, 1, 90);
    const s = await itemStats(new StatsRepository(ctx.db), { accountId: where.accountId, id: where.id, days, tz: values.tz ?? 'UTC' });
    if (values.json) return ctx.out(JSON.stringify(s));
    const t = s.totals;
    const daily = s.daily.map((d) => d.scans);
    ctx.out(`${where.title} (${s.code}): ${days} days to ${s.to}, ${s.tz}`);
    ctx.out(
      `  ${t.scansInRange} scans, ${t.uniqueScansInRange} unique in range · ${t.scans} scans, ${t.uniqueScans} unique in all · ${t.botScans} bot scans left out`,
    );
    ctx.out(`  ${s.from} ${sparkline(daily)} ${s.to}   busiest day: ${Math.max(0, ...daily)}`);
    if (t.lastScanAt) ctx.out(`  first scan ${t.firstScanAt}, last ${t.lastScanAt}`);
    for (const dim of DIMENSIONS) {
      const rows = s.breakdown[dim];
      if (rows.length === 0) continue;
      const max = rows[0]?.scans ?? 0;
      const total = rows.reduce((n, r) => n + r.scans, 0);
      ctx.out('');
      ctx.out(dim);
      const shown = rows
        .slice(0, TOP)
        .map((r) => [`  ${r.value}`, String(r.scans), `${Math.round((r.scans / total) * 100)}%`, bar(r.scans, max)]);
      for (const line of table(shown)) ctx.out(line);
      if (rows.length > TOP) ctx.out(`  … and ${rows.length - TOP} more`);
    }
    if (s.recent.length > 0) {
      ctx.out('');
      ctx.out('recent');
      const recent = s.recent
        .slice(0, 10)
        .map((r) => [`  ${r.scannedAt}`, r.device, r.os ?? '-', r.browser ?? '-', r.country ?? '-', r.referrer ?? '-']);
      for (const line of table(recent)) ctx.out(line);
    }
  },
});
