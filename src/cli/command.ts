// What a qrtrack command is: the words that name it, its help, its options, and what it
// does. One command per module under src/cli/commands/; src/cli/registry.ts lists them.
import type { ParseArgsConfig } from 'node:util';
import type { Config } from '../config.ts';
import type { Db } from '../db/database.ts';

export type Options = NonNullable<ParseArgsConfig['options']>;

export interface CliIo {
  /** One line of the command's answer (stdout). */
  out(line: string): void;
  /** One line for the person at the terminal (stderr): progress, notes. */
  note(line: string): void;
}

export interface CommandContext extends CliIo {
  config: Config;
  db: Db;
}

export interface CliCommand<O extends Options = Options> {
  /** The words that name it, e.g. ['qr', 'list']. */
  words: readonly string[];
  /** Arguments after the words, e.g. 'CODE_OR_ID [--days N] [--json]'. */
  synopsis: string;
  /** One line for the command list. */
  summary: string;
  /** Paragraphs shown by --help after the synopsis: options, output, examples. */
  details?: string;
  options?: O;
  /** It reads scan counts: the scan log is applied to the roll-ups first (a server may be down with scans pending). */
  readsScans?: boolean;
  /** Absent for commands still run by src/cli.ts itself (they have help here all the same). */
  run?(args: { values: ParsedValues<O>; positionals: string[] }, ctx: CommandContext): Promise<void>;
}

export type ParsedValues<O extends Options> = {
  [K in keyof O]?: O[K]['type'] extends 'boolean' ? boolean : O[K]['type'] extends 'string' ? string : string | boolean;
};

/** Keeps the option types of one command literal (so `values.days` is a string, `values.json` a boolean). */
export function defineCommand<O extends Options>(command: CliCommand<O>): CliCommand<O> {
  return command;
}
