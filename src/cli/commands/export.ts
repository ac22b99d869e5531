// Help for `export`; src/cli/bulk-commands.ts runs it (through src/cli.ts).
import { defineCommand } from '../command.ts';

export const exportItems = defineCommand({
  words: ['export'],
  readsScans: true,
  synopsis: '--account NAME [--format csv|json|png|svg] [--active true|false] [--content-type KIND] [--q TEXT] [--tag NAME] [--out FILE]',
  summary: "an account's QR codes as CSV or JSON, or their images as a ZIP (png, svg)",
  details: 'png and svg write a ZIP of the images: give --out FILE.zip. The filters are those of GET /v1/qr.',
  options: {
    account: { type: 'string' },
    format: { type: 'string' },
    active: { type: 'string' },
    'content-type': { type: 'string' },
    q: { type: 'string' },
    tag: { type: 'string' },
    out: { type: 'string' },
  },
});
