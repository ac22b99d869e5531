// The account overview: scans of all codes over the range, the most scanned codes, and
// where and on what they were scanned.
import { api } from '../../api.ts';
import { AppLayout } from '../../components/layout.tsx';
import { Spinner } from '../../components/ui.tsx';
import { Link } from '../../router.ts';
import { Breakdowns } from './breakdowns.tsx';
import { CountryMap } from './country-map.tsx';
import { CsvLinks } from './csv-links.tsx';
import { DailyChart } from './daily-chart.tsx';
import { formatCount } from './format.ts';
import { RangePicker } from './range-picker.tsx';
import { useRangeInAddress } from './range-query.ts';
import { TotalsPanel } from './totals-panel.tsx';
import { browserTimeZone, useStats } from './use-stats.ts';
import './stats.css';

export default function OverviewPage() {
  const [days, setDays] = useRangeInAddress();
  const { data, error, busy } = useStats((d, tz) => api.accountStats(d, tz), days, 0);
  const tz = browserTimeZone();
  return (
    <AppLayout title="Overview" actions={<RangePicker value={days} onChange={setDays} />}>
      {error ? (
        <p class="form-error" role="alert">
          {error}
        </p>
      ) : null}
      {!data ? (
        error ? null : (
          <Spinner />
        )
      ) : (
        <div class="stats" aria-busy={busy ? 'true' : undefined}>
          <p class="small muted">
            All your codes, {data.from} to {data.to}, days cut at midnight in {tz}.
          </p>
          <TotalsPanel
            totals={[
              {
                id: 'scansInRange',
                label: `Scans, last ${data.days} days`,
                value: data.totals.scansInRange,
                help: 'Human scans of all codes, deleted ones included.',
              },
              {
                id: 'uniqueScansInRange',
                label: 'Unique scans',
                value: data.totals.uniqueScansInRange,
                help: "Each code's different people per day, added up.",
              },
              {
                id: 'botScansInRange',
                label: 'Bot scans',
                value: data.totals.botScansInRange,
                help: 'Crawlers and link previews, kept apart.',
              },
              { id: 'codes', label: 'Codes', value: data.totals.codes, help: 'Codes in the account now.' },
            ]}
          />
          <DailyChart daily={data.daily} title="Scans per day, all codes" />
          <div class="grid grid--top">
            <section class="card panel" aria-labelledby="top-title">
              <h2 id="top-title">Top codes</h2>
              {data.topCodes.length === 0 ? (
                <p class="muted">No scans in this range.</p>
              ) : (
                <ol class="top-codes">
                  {data.topCodes.map((c) => (
                    <li key={c.id} data-code={c.code} data-scans={c.scans}>
                      <Link href={`/codes/${c.id}`}>{c.title}</Link>
                      {c.active ? null : <span class="badge">paused</span>}
                      <span class="top-codes__num">
                        {formatCount(c.scans)} <span class="muted small">({formatCount(c.uniqueScans)} unique)</span>
                      </span>
                    </li>
                  ))}
                </ol>
              )}
            </section>
            <CountryMap rows={data.breakdown.country} />
          </div>
          <Breakdowns breakdown={data.breakdown} />
          <CsvLinks
            links={[
              { label: `Daily scans, ${data.from} to ${data.to} (CSV)`, href: api.accountStatsCsvUrl(days, tz, 'daily') },
              { label: 'Breakdowns for the range (CSV)', href: api.accountStatsCsvUrl(days, tz, 'breakdown') },
              { label: 'Top 100 codes (CSV)', href: api.accountStatsCsvUrl(days, tz, 'top') },
            ]}
          />
        </div>
      )}
    </AppLayout>
  );
}
