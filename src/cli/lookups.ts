// Lookups and argument rules shared by the commands; every failure is one clear line.
import { AccountsRepository, type ItemLocation } from '../db/accounts/accounts-repository.ts';
import { ApiKeysRepository } from '../db/accounts/api-keys-repository.ts';
import { NotFoundError, ValidationError } from '../domain/errors.ts';
import type { CommandContext } from './command.ts';

export async function accountIdOf(ctx: CommandContext, name: string | undefined, command: string): Promise<string> {
  if (!name) throw new ValidationError(`${command}: --account NAME is required (see qrtrack accounts list)`);
  const id = await new ApiKeysRepository(ctx.db).findAccountId(name);
  if (!id) throw new NotFoundError(`${command}: no account named "${name}" (see qrtrack accounts list)`);
  return id;
}

export async function itemOf(ctx: CommandContext, codeOrId: string | undefined, command: string): Promise<ItemLocation> {
  if (!codeOrId) throw new ValidationError(`${command}: CODE_OR_ID is required, e.g. Ab3dE9z`);
  const found = await new AccountsRepository(ctx.db).findItem(codeOrId);
  if (!found) throw new NotFoundError(`${command}: no QR item with code or id "${codeOrId}"`);
  return found;
}

export function intOption(command: string, name: string, raw: string | undefined, fallback: number, min: number, max: number): number {
  if (raw === undefined) return fallback;
  if (!/^\d+$/.test(raw) || Number(raw) < min || Number(raw) > max) {
    throw new ValidationError(`${command}: --${name} must be an integer from ${min} to ${max}, got "${raw}"`);
  }
  return Number(raw);
}

export function oneOf<T extends string>(command: string, name: string, raw: string | undefined, values: readonly T[], fallback: T): T {
  if (raw === undefined) return fallback;
  if (!(values as readonly string[]).includes(raw))
    throw new ValidationError(`${command}: --${name} must be one of ${values.join(', ')}, got "${raw}"`);
  return raw as T;
}
