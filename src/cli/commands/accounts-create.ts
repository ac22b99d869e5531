import { AccountsRepository } from '../../db/accounts/accounts-repository.ts';
import { ValidationError } from '../../domain/errors.ts';
import { defineCommand } from '../command.ts';

const NAME_MAX = 100;

export const accountsCreate = defineCommand({
  words: ['accounts', 'create'],
  synopsis: 'NAME [--json]',
  summary: 'create an empty account (then: keys create --account NAME)',
  options: { json: { type: 'boolean' } },
  async run({ values, positionals }, ctx) {
    const name = positionals[0];
    if (!name || name.trim() !== name || name.length > NAME_MAX || positionals.length > 1) {
      throw new ValidationError(`accounts create: NAME must be one argument of 1 to ${NAME_MAX} characters without surrounding spaces`);
    }
    const account = await new AccountsRepository(ctx.db).create(name);
    if (values.json) return ctx.out(JSON.stringify(account));
    ctx.out(`created account "${account.name}" (${account.id})`);
  },
});
