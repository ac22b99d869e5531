// Help texts, built from the command list so they cannot drift from it.
import type { CliCommand } from './command.ts';

const line = (c: CliCommand) => `qrtrack ${[...c.words, c.synopsis].filter(Boolean).join(' ')}`;

export function mainHelp(commands: readonly CliCommand[]): string[] {
  const width = Math.max(...commands.map((c) => c.words.join(' ').length));
  return [
    'qrtrack: dynamic QR codes with honest scan statistics',
    '',
    'usage: qrtrack COMMAND [options]     (from a clone: npm run -s qrtrack -- COMMAND [options])',
    '',
    'commands:',
    ...commands.map((c) => `  ${c.words.join(' ').padEnd(width)}  ${c.summary}`),
    '',
    'qrtrack COMMAND --help shows its options. The commands read the same environment as the server',
    '(DATABASE_URL, PUBLIC_BASE_URL, …) and work on its database directly.',
  ];
}

export function groupHelp(commands: readonly CliCommand[], group: string): string[] {
  return ['usage:', ...commands.filter((c) => c.words[0] === group).flatMap((c) => [`  ${line(c)}`, `      ${c.summary}`])];
}

export function commandHelp(c: CliCommand): string[] {
  return [`usage: ${line(c)}`, '', c.summary, ...(c.details ? ['', ...c.details.split('\n')] : [])];
}
