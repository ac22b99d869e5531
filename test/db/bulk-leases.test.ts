// One import and one export per account at a time across processes: two connections to one
// database stand for two processes (two servers, or a server and the CLI).
import { describe, expect, it } from 'vitest';
import { RunningJobs } from '../../src/bulk/running-jobs.ts';
import { ApiKeysRepository } from '../../src/db/accounts/api-keys-repository.ts';
import { BulkLeasesRepository } from '../../src/db/accounts/bulk-leases-repository.ts';
import type { Db } from '../../src/db/database.ts';
import { ConflictError } from '../../src/domain/errors.ts';
import { freshDatabase } from '../support/fresh-database.ts';

async function twoProcesses(): Promise<{ a: Db; b: Db; account: string }> {
  const fresh = await freshDatabase();
  const a = await fresh.open();
  const b = await fresh.open();
  return { a, b, account: await new ApiKeysRepository(a).ensureAccount('leased') };
}

const refusal = (p: Promise<unknown>) =>
  p.then(
    () => 'started',
    (err: unknown) => (err instanceof ConflictError ? `${err.status} ${err.message}` : Promise.reject(err)),
  );

describe('one import and one export per account, across processes', () => {
  it("refuses another process's export while one runs, naming it, and starts one once it has ended", async () => {
    const { a, b, account } = await twoProcesses();
    const end = await new RunningJobs(a).start(account, 'export', 'a CSV export');
    expect(await refusal(new RunningJobs(b).start(account, 'export', 'a CLI export (JSON)'))).toBe(
      '409 export: a CSV export of this account is still running; an account runs one export at a time, so retry when it has finished',
    );
    // An import is another kind, and another account's export another account.
    const importEnd = await new RunningJobs(b).start(account, 'import', 'a CLI import');
    const other = await new ApiKeysRepository(b).ensureAccount('other');
    const otherEnd = await new RunningJobs(b).start(other, 'export', 'a CLI export (CSV)');
    await end();
    await end(); // safe twice
    const next = await new RunningJobs(b).start(account, 'export', 'a CLI export (JSON)');
    await Promise.all([next(), importEnd(), otherEnd()]);
  });

  it('keeps a running job its lease by renewing it, and lets a lease its process stopped renewing expire', async () => {
    const { a, b, account } = await twoProcesses();
    const end = await new RunningJobs(a, 300).start(account, 'export', 'a ZIP export of PNG images');
    await new Promise((resolve) => setTimeout(resolve, 700));
    expect(await refusal(new RunningJobs(b).start(account, 'export', 'a CSV export'))).toMatch(/^409 export: a ZIP export/);
    await end();
    // A process killed midway: its lease is never renewed nor ended.
    await new BulkLeasesRepository(a).take(account, 'import', 'killed', 'a CSV import', 100);
    expect(await refusal(new RunningJobs(b).start(account, 'import', 'a CLI import'))).toMatch(/^409 import: a CSV import/);
    await new Promise((resolve) => setTimeout(resolve, 200));
    const taken = await new RunningJobs(b).start(account, 'import', 'a CLI import');
    await taken();
  });

  it('gives one of many jobs started at once the lease', async () => {
    const { a, b, account } = await twoProcesses();
    const tries = await Promise.allSettled(
      Array.from({ length: 8 }, (_, i) => new RunningJobs(i % 2 ? a : b).start(account, 'export', `export ${i}`)),
    );
    const started = tries.filter((t) => t.status === 'fulfilled');
    expect(started).toHaveLength(1);
    for (const t of tries) if (t.status === 'rejected') expect(t.reason).toBeInstanceOf(ConflictError);
    if (started[0]?.status === 'fulfilled') await started[0].value();
  });
});
