// The one place a command's arguments are parsed, so every command, whoever runs it (the
// registry, src/cli.ts, the bulk commands), answers a bad option in the same words.
import { parseArgs } from 'node:util';
import { ValidationError } from '../domain/errors.ts';
import type { CliCommand, Options, ParsedValues } from './command.ts';

export interface ParsedArgs<O extends Options> {
  values: ParsedValues<O>;
  positionals: string[];
}

export function parseCommandArgs<O extends Options>(command: CliCommand<O>, args: string[]): ParsedArgs<O> {
  const name = command.words.join(' ');
  try {
    const parsed = parseArgs({ args, options: command.options ?? {}, allowPositionals: true, strict: true });
    return { values: parsed.values as ParsedValues<O>, positionals: parsed.positionals };
  } catch (err) {
    throw new ValidationError(`${name}: ${problem(err)}; see qrtrack ${name} --help`);
  }
}

/** node:util's messages are long, several lines and mention '-- "--x"'; say it in our words. */
function problem(err: unknown): string {
  const message = err instanceof Error ? err.message : String(err);
  const option = /'(-{1,2}[^'\s=]+)/.exec(message)?.[1] ?? 'an option';
  const code = (err as { code?: unknown }).code;
  if (code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION') return `unknown option ${option}`;
  if (code === 'ERR_PARSE_ARGS_INVALID_OPTION_VALUE')
    return /does not take/.test(message) ? `option ${option} takes no value` : `option ${option} needs a value`;
  return message.split('\n')[0] ?? message;
}
