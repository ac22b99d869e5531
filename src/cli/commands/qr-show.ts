import { QrItemsRepository } from '../../db/qr-items/qr-items-repository.ts';
import { NotFoundError } from '../../domain/errors.ts';
import { DEFAULT_DESIGN } from '../../domain/design/design.ts';
import { toView } from '../../domain/qr-items/qr-item.ts';
import { defineCommand } from '../command.ts';
import { itemOf } from '../lookups.ts';
import { table } from '../terminal-charts.ts';

export const qrShow = defineCommand({
  words: ['qr', 'show'],
  synopsis: 'CODE_OR_ID [--json]',
  summary: 'one QR code: where it points, its state, scans and design',
  details: 'CODE_OR_ID is the short code (Ab3dE9z, case-sensitive) or the id. --json prints it as the API answers it.',
  options: { json: { type: 'boolean' } },
  async run({ values, positionals }, ctx) {
    const where = await itemOf(ctx, positionals[0], 'qr show');
    const record = await new QrItemsRepository(ctx.db).find(where.accountId, where.id);
    if (!record) throw new NotFoundError(`qr show: no QR item with code or id "${positionals[0]}"`);
    const item = toView(record, ctx.config.publicBaseUrl);
    if (values.json) return ctx.out(JSON.stringify({ ...item, account: where.accountName }));
    const changed = Object.entries(item.design).filter(([k, v]) => DEFAULT_DESIGN[k as keyof typeof DEFAULT_DESIGN] !== v);
    const rows = [
      ['title', item.title],
      ['code', item.code],
      ['short link', item.shortUrl],
      ['kind', item.contentType],
      ['payload', item.payload.replace(/\r?\n/g, ' ⏎ ')],
      ['state', item.active ? 'active' : 'paused'],
      ['scans', String(item.scanCount)],
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
  },
});
