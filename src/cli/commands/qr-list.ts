import { addressesOf } from '../../db/domains/addresses.ts';
import { QrItemsRepository } from '../../db/qr-items/qr-items-repository.ts';
import { type ContentType, CONTENT_TYPES } from '../../domain/payload/index.ts';
import { toView } from '../../domain/qr-items/qr-item.ts';
import { defineCommand } from '../command.ts';
import { accountIdOf, intOption, oneOf } from '../lookups.ts';
import { clip, table } from '../terminal-charts.ts';

/** Quotes a word for a POSIX shell only when it needs it, so the hint can be pasted as it is. */
function shellWord(word: string): string {
  return /^[\w@%+=:,./-]+$/u.test(word) ? word : `'${word.replaceAll("'", `'\\''`)}'`;
}

/** The `qrtrack export` command that searches every code with the same filters as this listing. */
export function exportCommandFor(values: { account?: string; active?: string; type?: string; search?: string }): string {
  const args = ['qrtrack', 'export', '--account', shellWord(values.account ?? '')];
  if (values.active !== undefined) args.push('--active', shellWord(values.active));
  if (values.type !== undefined) args.push('--content-type', shellWord(values.type));
  if (values.search !== undefined) args.push('--q', shellWord(values.search));
  return args.join(' ');
}

export const qrList = defineCommand({
  words: ['qr', 'list'],
  readsScans: true,
  synopsis: '--account NAME [--limit N] [--active true|false] [--type KIND] [--search TEXT] [--json]',
  summary: "an account's QR codes, newest first",
  details: `--limit 1..200 (default 50), --type one of ${CONTENT_TYPES.join(', ')}, --search a case-insensitive
substring of title or payload. --json prints the items as the API answers them, one JSON array.`,
  options: {
    account: { type: 'string' },
    limit: { type: 'string' },
    active: { type: 'string' },
    type: { type: 'string' },
    search: { type: 'string' },
    json: { type: 'boolean' },
  },
  async run({ values }, ctx) {
    const accountId = await accountIdOf(ctx, values.account, 'qr list');
    const limit = intOption('qr list', 'limit', values.limit, 50, 1, 200);
    const active = oneOf('qr list', 'active', values.active, ['true', 'false'] as const, 'true');
    const contentType = values.type === undefined ? undefined : oneOf<ContentType>('qr list', 'type', values.type, CONTENT_TYPES, 'url');
    const page = await new QrItemsRepository(ctx.db).list(accountId, {
      limit,
      active: values.active === undefined ? undefined : active === 'true',
      contentType,
      q: values.search,
    });
    const addresses = await addressesOf(ctx.db, ctx.config);
    const items = page.items.map((i) => toView(i, addresses));
    if (values.json) return ctx.out(JSON.stringify(items));
    if (items.length === 0 && page.more) {
      // A search without three letters or digits in a row reads a window of codes a request.
      return ctx.out(`no match among the newest codes searched; ${exportCommandFor(values)} searches them all`);
    }
    if (items.length === 0) return ctx.out(`no QR codes in "${values.account}" match`);
    const rows = items.map((i) => [
      i.code,
      i.active ? 'active' : 'paused',
      String(i.scanCount),
      i.contentType,
      clip(i.title, 30),
      clip(i.payload, 50),
    ]);
    for (const line of table([['CODE', 'STATE', 'SCANS', 'KIND', 'TITLE', 'PAYLOAD'], ...rows])) ctx.out(line);
    if (page.more) ctx.note(`showing the newest ${limit}; use --limit or qrtrack export for all`);
  },
});
