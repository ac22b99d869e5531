// How long the account keeps raw scans (scanRetentionDays): owners change it, others see it.
// Counts and the daily series always stay; what goes is said next to the field (docs/scan-pipeline.md).
import { useEffect, useState } from 'preact/hooks';
import { type AccountSettingsView, api } from '../../api.ts';
import { announce } from '../../components/announce.ts';
import { Field } from '../../components/field.tsx';
import { useForm } from '../../components/form.ts';
import { Button, FormError, Notice } from '../../components/ui.tsx';

const KEPT = 'Scan counts, unique scans and the daily series are always kept.';

function describe(days: number | null): string {
  return days === null
    ? 'Raw scans are kept forever.'
    : `Raw scans and breakdowns older than ${days} ${days === 1 ? 'day' : 'days'} are deleted.`;
}

export function ScanRetentionCard({ owner }: { owner: boolean }) {
  const [account, setAccount] = useState<AccountSettingsView | null>(null);
  const [saved, setSaved] = useState(false);
  const form = useForm({ scanRetentionDays: '' });
  useEffect(() => {
    void api
      .account()
      .then((a) => {
        setAccount(a);
        form.setValues({ scanRetentionDays: a.scanRetentionDays === null ? '' : String(a.scanRetentionDays) });
      })
      .catch(() => undefined);
  }, []);
  const onSubmit = (e: Event) => {
    e.preventDefault();
    setSaved(false);
    void form.submit(
      (v) => {
        const t = v.scanRetentionDays.trim();
        if (t === '') return {};
        const n = Number(t);
        return {
          scanRetentionDays:
            Number.isInteger(n) && n >= 1 && n <= 3650
              ? undefined
              : 'Enter whole days from 1 to 3650, or leave it empty to keep scans forever',
        };
      },
      async (v) => {
        const t = v.scanRetentionDays.trim();
        const next = await api.setScanRetention(t === '' ? null : Number(t));
        setAccount(next);
        setSaved(true);
        announce(`Saved. ${describe(next.scanRetentionDays)}`);
      },
    );
  };
  return (
    <section aria-labelledby="retention" class="card">
      <h2 id="retention">Scan data</h2>
      {account === null ? null : (
        <p>
          {describe(account.scanRetentionDays)} {KEPT}
        </p>
      )}
      {owner ? (
        <form onSubmit={onSubmit} noValidate>
          {saved ? <Notice kind="success">Saved. Older scans go within the hour.</Notice> : null}
          <FormError message={form.errors.form} />
          <Field
            label="Keep raw scans for (days)"
            type="number"
            min={1}
            hint="Empty keeps them forever. Past this, each scan's device, browser, country and referrer are deleted. A code's scans can also be deleted through the API (DELETE /v1/qr/{id}/scans)."
            {...form.bind('scanRetentionDays')}
          />
          <Button type="submit" busy={form.busy}>
            Save
          </Button>
        </form>
      ) : (
        <p class="muted">Owners can change this.</p>
      )}
    </section>
  );
}
