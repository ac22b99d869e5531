import { AccountsRepository } from '../../db/accounts/accounts-repository.ts';
import { defineCommand } from '../command.ts';
import { table } from '../terminal-charts.ts';

export const accountsList = defineCommand({
  words: ['accounts', 'list'],
  synopsis: '[--json]',
  summary: 'every account with its items, active keys and scans',
  options: { json: { type: 'boolean' } },
  async run({ values }, ctx) {
    const accounts = await new AccountsRepository(ctx.db).list();
    if (values.json) return ctx.out(JSON.stringify(accounts));
    if (accounts.length === 0) return ctx.out('no accounts yet (qrtrack accounts create NAME, or keys create --account NAME)');
    const rows = accounts.map((a) => [a.name, String(a.items), String(a.keys), String(a.scans), a.createdAt.slice(0, 10), a.id]);
    for (const line of table([['NAME', 'ITEMS', 'KEYS', 'SCANS', 'CREATED', 'ID'], ...rows])) ctx.out(line);
  },
});
