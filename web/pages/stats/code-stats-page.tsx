// One code's dashboard: its status, totals (with what "unique" and "bot" mean), its schedule
// and limit with the scans they turned away, a daily chart over 7/14/30/90 days cut at the
// browser's midnight, breakdowns, a map, where its rules and splits sent the scans, recent
// scans kept live, and CSV downloads. Everything comes from /v1 through api.ts.
import { useEffect, useState } from 'preact/hooks';
import { ApiError, type CodeStats, type QrItem, api } from '../../api.ts';
import { CodeActions } from '../../components/code-actions.tsx';
import { AppLayout } from '../../components/layout.tsx';
import { StatusBadge } from '../../components/status-badge.tsx';
import { Spinner, When } from '../../components/ui.tsx';
import { Link } from '../../router.ts';
import { can, useAppState } from '../../store.ts';
import { hasLifecycle } from '../../item-lifecycle.ts';
import { NO_BLOCKED } from './attribution.ts';
import { BlockedPanel } from './blocked-panel.tsx';
import { CodeCard } from './code-card.tsx';
import { Breakdowns } from './breakdowns.tsx';
import { CountryMap } from './country-map.tsx';
import { CsvLinks } from './csv-links.tsx';
import { DailyChart } from './daily-chart.tsx';
import { LifecycleTimeline } from './lifecycle-timeline.tsx';
import { RangePicker } from './range-picker.tsx';
import { useRangeInAddress } from './range-query.ts';
import { RecentScans } from './recent-scans.tsx';
import { RulePanels } from './rule-panels.tsx';
import { TotalsPanel } from './totals-panel.tsx';
import { browserTimeZone, useStats } from './use-stats.ts';
import './stats.css';

export default function CodeStatsPage({ id }: { id: string }) {
  const { session } = useAppState();
  const [days, setDays] = useRangeInAddress();
  const [refresh, setRefresh] = useState(0);
  // undefined while it loads; null when it could not be read (the stats may still load).
  const [item, setItem] = useState<QrItem | null | 'missing' | undefined>(undefined);
  useEffect(() => {
    // An address whose id is not even a UUID (400 on `id`) names no code either.
    const missing = (err: unknown) => err instanceof ApiError && (err.status === 404 || (err.status === 400 && err.field === 'id'));
    api.getCode(id).then(setItem, (err: unknown) => setItem(missing(err) ? 'missing' : null));
  }, [id]);
  const { data, error, busy } = useStats((d, tz) => api.codeStats(id, d, tz), days, refresh);
  const tz = browserTimeZone();
  const mayEdit = can(session, 'write');

  // Said as the edit page says it, with nothing that would act on a code that is not there.
  if (item === 'missing') {
    return (
      <AppLayout title="Code statistics">
        <p class="form-error" role="alert">
          There is no such code in this account.
        </p>
        <Link href="/codes">Back to your codes</Link>
      </AppLayout>
    );
  }

  const actions = (
    <div class="stats-actions">
      {item ? (
        <Link class="btn btn--secondary" href={`/codes/${item.id}/edit`}>
          {mayEdit ? 'Edit' : 'View & download'}
        </Link>
      ) : null}
      {item && mayEdit ? <CodeActions item={item} onChange={setItem} /> : null}
      <RangePicker value={days} onChange={setDays} />
    </div>
  );

  return (
    <AppLayout title={item ? item.title : 'Code statistics'} actions={actions}>
      <p class="crumbs">
        <Link href="/codes">Codes</Link> ›{' '}
        {item ? (
          <>
            <code>{item.shortUrl.replace(/^https?:\/\//, '')}</code>
            <StatusBadge item={item} />
          </>
        ) : null}
      </p>
      {item ? <CodeCard item={item} /> : null}
      {/* A missing code's stats answer 404 too: wait for the code before showing the raw error. */}
      {error && item !== undefined ? (
        <p class="form-error" role="alert">
          {error}
        </p>
      ) : null}
      {!data ? (
        error && item !== undefined ? null : (
          <Spinner />
        )
      ) : (
        <div class="stats" aria-busy={busy ? 'true' : undefined}>
          <p class="small muted">
            {data.from} to {data.to}, days cut at midnight in {tz}.
          </p>
          <TotalsPanel
            totals={[
              {
                id: 'scansInRange',
                label: `Scans, last ${data.days} days`,
                value: data.totals.scansInRange,
                help: 'People who opened the link; bots and link previews are not counted.',
              },
              {
                id: 'uniqueScansInRange',
                label: 'Unique scans',
                value: data.totals.uniqueScansInRange,
                help: 'Different people per day: the same phone scanning twice on one day counts once.',
              },
              { id: 'scans', label: 'All-time scans', value: data.totals.scans, help: 'Every human scan since the code was made.' },
              {
                id: 'botScans',
                label: 'Bot scans',
                value: data.totals.botScans,
                help: 'Crawlers and chat apps fetching link previews (WhatsApp, Slack, …): recorded apart, never in the scan counts.',
              },
              {
                id: 'firstScanAt',
                label: 'First scan',
                value: data.totals.firstScanAt ? '' : 'never',
                help: <When iso={data.totals.firstScanAt} empty="" />,
              },
              {
                id: 'lastScanAt',
                label: 'Last scan',
                value: data.totals.lastScanAt ? '' : 'never',
                help: <When iso={data.totals.lastScanAt} empty="" />,
              },
            ]}
          />
          {item ? <LifecyclePanels item={item} data={data} /> : null}
          <DailyChart daily={data.daily} />
          <div class="grid grid--wide">
            <CountryMap rows={data.breakdown.country} />
          </div>
          <Breakdowns breakdown={data.breakdown} />
          {item && (RULE_KINDS.has(item.contentType) || (data.breakdown.rule ?? []).some((r) => r.value !== 'none')) ? (
            <RulePanels rules={item.rules} breakdown={data.breakdown} />
          ) : null}
          <RecentScans id={id} initial={data.recent} scanCount={data.totals.scans} onChange={() => setRefresh((n) => n + 1)} />
          <CsvLinks
            links={[
              { label: `Daily scans, ${data.from} to ${data.to} (CSV)`, href: api.codeStatsCsvUrl(id, days, tz, 'daily') },
              {
                // The server adds the rule, variant (with unique scans) and destination rows to the same file.
                label: `Breakdowns for the range${item && item.rules.length > 0 ? ', with rules, variants and destinations' : ''} (CSV)`,
                href: api.codeStatsCsvUrl(id, days, tz, 'breakdown'),
              },
            ]}
          />
        </div>
      )}
    </AppLayout>
  );
}

/** The kinds whose scans rules may send elsewhere (the others show a page of their own). */
const RULE_KINDS: ReadonlySet<string> = new Set(['url', 'whatsapp', 'email']);

/** The schedule and limit, and the scans they (or a password) refused; only for a code that has any. */
function LifecyclePanels({ item, data }: { item: QrItem; data: CodeStats }) {
  const blocked = data.blocked ?? NO_BLOCKED;
  const refused = Object.values(blocked).some((n) => n > 0);
  const timeline = hasLifecycle(item);
  if (!timeline && !refused && !item.hasPassword) return null;
  return (
    <div class={`code-panels${timeline ? '' : ' code-panels--one'}`}>
      {timeline ? <LifecycleTimeline item={item} /> : null}
      <BlockedPanel item={item} blocked={blocked} days={data.days} />
    </div>
  );
}
