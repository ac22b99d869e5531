import { addressesOf } from '../../db/domains/addresses.ts';
import { QrItemsRepository } from '../../db/qr-items/qr-items-repository.ts';
import { NotFoundError } from '../../domain/errors.ts';
import { DEFAULT_DESIGN } from '../../domain/design/design.ts';
import { type QrItemView, toView } from '../../domain/qr-items/qr-item.ts';
import type { Rule } from '../../domain/dynamic/rules-schema.ts';
import { defineCommand } from '../command.ts';
import { itemOf } from '../lookups.ts';
import { table } from '../terminal-charts.ts';

export const qrShow = defineCommand({
  words: ['qr', 'show'],
  readsScans: true,
  synopsis: 'CODE_OR_ID [--json]',
  summary: 'one QR code: where it points, its state, scans and design',
  details: 'CODE_OR_ID is the short code (Ab3dE9z, case-sensitive) or the id. --json prints it as the API answers it.',
  options: { json: { type: 'boolean' } },
  async run({ values, positionals }, ctx) {
    const where = await itemOf(ctx, positionals[0], 'qr show');
    const record = await new QrItemsRepository(ctx.db).find(where.accountId, where.id);
    if (!record) throw new NotFoundError(`qr show: no QR item with code or id "${positionals[0]}"`);
    const item = toView(record, await addressesOf(ctx.db, ctx.config));
    if (values.json) return ctx.out(JSON.stringify({ ...item, account: where.accountName }));
    const changed = Object.entries(item.design).filter(([k, v]) => DEFAULT_DESIGN[k as keyof typeof DEFAULT_DESIGN] !== v);
    const rows = [
      ['title', item.title],
      ['code', item.code],
      ['short link', item.shortUrl],
      ['kind', item.contentType],
      ['payload', item.payload.replace(/\r?\n/g, ' ⏎ ')],
      ['status', statusLine(item)],
      ['scans', String(item.scanCount)],
      ...lifecycleRows(item),
      ['account', where.accountName],
      ['id', item.id],
      ['created', item.createdAt],
      ['updated', item.updatedAt],
      [
        'design',
        changed.length === 0
          ? 'defaults'
          : changed.map(([k, v]) => `${k}=${typeof v === 'string' && v.length > 40 ? v.slice(0, 37) + '…' : String(v)}`).join(' '),
      ],
    ];
    for (const line of table(rows)) ctx.out(line);
    if (item.rules.length > 0) {
      ctx.out('');
      ctx.out('rules (first match wins, else the payload):');
      for (const [i, rule] of item.rules.entries()) ctx.out(`  ${i + 1}. ${ruleLine(rule)}`);
    }
  },
});

function statusLine(item: QrItemView): string {
  switch (item.status) {
    case 'scheduled':
      return `scheduled: opens ${item.activatesAt}`;
    case 'expired':
      return `expired on ${item.expiresAt}`;
    case 'capped':
      return `capped: ${item.capCount} of ${item.maxScans} scans`;
    default:
      return item.status;
  }
}

/** Only what is set: a plain code shows none of these. */
function lifecycleRows(item: QrItemView): string[][] {
  const rows: string[][] = [];
  if (item.activatesAt) rows.push(['opens', item.activatesAt]);
  if (item.expiresAt) rows.push(['expires', item.expiresAt]);
  if (item.maxScans !== null) rows.push(['scan cap', `${item.capCount} of ${item.maxScans} (${item.scanCapBasis} scans)`]);
  for (const [state, url] of Object.entries(item.fallbackUrls)) rows.push([`when ${state}`, String(url)]);
  if (item.hasPassword) rows.push(['password', 'set']);
  if (!item.forwardQuery) rows.push(['query', 'not forwarded']);
  const utm = Object.entries(item.utm);
  if (utm.length > 0) rows.push(['utm', utm.map(([k, v]) => `utm_${k}=${v}`).join(' ')]);
  return rows;
}

function ruleLine(rule: Rule): string {
  const when =
    rule.conditions.length === 0
      ? 'always'
      : rule.conditions
          .map(
            (c) =>
              `${c.type}${c.key ? `[${c.key}]` : ''} ${c.op.replace('_', ' ')} ${c.values.join(',') || '(present)'}${c.tz ? ` ${c.tz}` : ''}`,
          )
          .join(' and ');
  const to = rule.split ? rule.split.map((v) => `${v.weight}% ${v.destination}`).join(', ') : rule.destination;
  return `${rule.name ? `${rule.name} ` : ''}[${rule.id}] ${when} → ${to}`;
}
