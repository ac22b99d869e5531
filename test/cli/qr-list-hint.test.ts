// The hint `qr list` prints when a short search found nothing among the newest codes: it must
// repeat every filter of the listing, and paste into a shell as it is.
import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { exportCommandFor } from '../../src/cli/commands/qr-list.ts';

describe('qr list: the export hint for a search that read only the newest codes', () => {
  it('keeps --active and --type (as --content-type) with the search', () => {
    expect(exportCommandFor({ account: 'demo', active: 'false', type: 'wifi', search: 'ab' })).toBe(
      'qrtrack export --account demo --active false --content-type wifi --q ab',
    );
    expect(exportCommandFor({ account: 'demo', search: 'x' })).toBe('qrtrack export --account demo --q x');
  });

  it('quotes words a shell would split or expand, so the words arrive unchanged', () => {
    const hint = exportCommandFor({ account: "Joe's café", search: '$HOME "a b" `x`' });
    expect(hint).toBe(`qrtrack export --account 'Joe'\\''s café' --q '$HOME "a b" \`x\`'`);
    const args = execFileSync('sh', ['-c', `printf '%s\\n' ${hint.replace(/^qrtrack export /, '')}`], { encoding: 'utf8' }).split('\n');
    expect(args.slice(0, 4)).toEqual(['--account', "Joe's café", '--q', '$HOME "a b" `x`']);
  });
});
