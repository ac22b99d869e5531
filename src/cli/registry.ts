// Every qrtrack command, and the dispatcher: --help anywhere prints help and exits 0; a
// command with a `run` runs here; the others (keys list and revoke, setup-link, users, serve) are left to src/cli.ts,
// which parses their arguments with the same parseCommandArgs.
import { loadConfig } from '../config.ts';
import { openDatabase } from '../db/database.ts';
import { createAggregator } from '../db/scans/rollup-aggregator.ts';
import { ValidationError } from '../domain/errors.ts';
import type { CliCommand, CliIo } from './command.ts';
import { accountsCreate } from './commands/accounts-create.ts';
import { accountsList } from './commands/accounts-list.ts';
import { backup } from './commands/backup.ts';
import { exportItems } from './commands/export.ts';
import { importItems } from './commands/import.ts';
import { keysCreate, keysList, keysRevoke, keysRotate } from './commands/keys.ts';
import { qrList } from './commands/qr-list.ts';
import { qrShow } from './commands/qr-show.ts';
import { serve } from './commands/serve.ts';
import { setupLink } from './commands/setup-link.ts';
import { stats } from './commands/stats.ts';
import { usersResetLink } from './commands/users-reset-link.ts';
import { commandHelp, groupHelp, mainHelp } from './help.ts';
import { parseCommandArgs } from './parse-command-args.ts';

// Widened once here: each module keeps its own literal option types.
export const COMMANDS: readonly CliCommand[] = [
  serve,
  accountsList,
  accountsCreate,
  keysCreate,
  keysList,
  keysRevoke,
  keysRotate,
  setupLink,
  usersResetLink,
  qrList,
  qrShow,
  stats,
  importItems,
  exportItems,
  backup,
] as unknown as readonly CliCommand[];

const wantsHelp = (argv: readonly string[]) => {
  const end = argv.indexOf('--');
  return (end === -1 ? argv : argv.slice(0, end)).some((a) => a === '--help' || a === '-h');
};

function find(argv: readonly string[]): CliCommand | undefined {
  return COMMANDS.filter((c) => c.words.every((w, i) => argv[i] === w)).sort((a, b) => b.words.length - a.words.length)[0];
}

const stdio: CliIo = {
  out: (line) => void process.stdout.write(line + '\n'),
  note: (line) => void process.stderr.write(line + '\n'),
};
// `qrtrack export … | head` closes the pipe early: that is the reader's choice, not an error.
process.stdout.on('error', (err: NodeJS.ErrnoException) => {
  if (err.code === 'EPIPE') process.exit(0);
  throw err;
});

/**
 * Runs `argv` if this module knows what to do with it and answers true; false leaves it to
 * the caller. Errors are thrown as one-line messages (ValidationError, NotFoundError, ConfigError).
 */
export async function dispatch(argv: readonly string[], io: CliIo = stdio): Promise<boolean> {
  const [first, second] = argv;
  if (first === undefined) throw new ValidationError('no command given; see qrtrack --help');
  if (first === 'help' || first === '--help' || first === '-h') {
    const rest = argv.slice(1);
    const named = find(rest);
    for (const line of named
      ? commandHelp(named)
      : rest.length > 0 && isGroup(rest[0]!)
        ? groupHelp(COMMANDS, rest[0]!)
        : mainHelp(COMMANDS))
      io.out(line);
    return true;
  }
  const command = find(argv);
  if (wantsHelp(argv)) {
    const lines = command ? commandHelp(command) : isGroup(first) ? groupHelp(COMMANDS, first) : mainHelp(COMMANDS);
    for (const line of lines) io.out(line);
    return true;
  }
  if (!command) {
    if (isGroup(first))
      throw new ValidationError(
        `${first}: ${second === undefined ? 'which one?' : `unknown command "${second}"`} (${subcommands(first)}); see qrtrack ${first} --help`,
      );
    return false;
  }
  if (!command.run) return false;
  const { values, positionals } = parseCommandArgs(command, argv.slice(command.words.length));
  const config = loadConfig();
  const db = await openDatabase(config.database);
  try {
    if (command.readsScans) await createAggregator(db).catchUp(120_000);
    await command.run({ values, positionals }, { ...io, config, db });
  } finally {
    await db.close();
  }
  return true;
}

function isGroup(word: string): boolean {
  return COMMANDS.some((c) => c.words.length > 1 && c.words[0] === word);
}

function subcommands(group: string): string {
  return COMMANDS.filter((c) => c.words[0] === group)
    .map((c) => c.words.slice(1).join(' '))
    .join(', ');
}
