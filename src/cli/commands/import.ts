// Help for `import`; src/cli/bulk-commands.ts runs it (through src/cli.ts).
import { defineCommand } from '../command.ts';

export const importItems = defineCommand({
  words: ['import'],
  synopsis: `FILE --account NAME [--design-json '{"dotsStyle":"rounded",…}']`,
  summary: 'create QR codes from a CSV file (one per row), all or nothing',
  options: { account: { type: 'string' }, 'design-json': { type: 'string' } },
});
