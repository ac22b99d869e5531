// A code's life at a glance, for a code with a schedule or a limit: made → opens → expires on
// one line with "now" marked, and how much of its scan limit is used. The line is a picture
// (hidden from screen readers); the list under it says the same in words.
import type { QrItem } from '../../api.ts';
import { formatMoment } from '../../item-lifecycle.ts';
import { formatCount } from './format.ts';

interface Moment {
  key: 'created' | 'opens' | 'expires' | 'now';
  label: string;
  at: number;
}

const relative = new Intl.RelativeTimeFormat(undefined, { numeric: 'auto' });
const UNITS: ReadonlyArray<[Intl.RelativeTimeFormatUnit, number]> = [
  ['year', 365 * 86_400_000],
  ['month', 30 * 86_400_000],
  ['day', 86_400_000],
  ['hour', 3_600_000],
  ['minute', 60_000],
];
/** 'in 3 days', '2 hours ago'. */
function fromNow(at: number, now: number): string {
  const diff = at - now;
  for (const [unit, ms] of UNITS) if (Math.abs(diff) >= ms) return relative.format(Math.round(diff / ms), unit);
  return relative.format(0, 'minute');
}

export function LifecycleTimeline({ item, now = Date.now() }: { item: QrItem; now?: number }) {
  const opens = item.activatesAt === null ? null : Date.parse(item.activatesAt);
  const expires = item.expiresAt === null ? null : Date.parse(item.expiresAt);
  const created = Date.parse(item.createdAt);
  const moments: Moment[] = [
    { key: 'created', label: 'Created', at: created },
    ...(opens === null ? [] : [{ key: 'opens' as const, label: opens > now ? 'Opens' : 'Opened', at: opens }]),
    ...(expires === null ? [] : [{ key: 'expires' as const, label: expires > now ? 'Expires' : 'Expired', at: expires }]),
    { key: 'now', label: 'Now', at: now },
  ];
  moments.sort((a, b) => a.at - b.at);
  const start = moments[0]?.at ?? now;
  const span = Math.max((moments.at(-1)?.at ?? now) - start, 1);
  const x = (at: number) => `${(((at - start) / span) * 100).toFixed(2)}%`;
  const openFrom = opens ?? start;
  const openTo = expires ?? start + span;
  const dated = opens !== null || expires !== null;

  return (
    <section class="card panel lifecycle" aria-labelledby="lifecycle-title">
      <h2 id="lifecycle-title">Schedule and limit</h2>
      {dated ? (
        <>
          <div class="timeline" aria-hidden="true">
            <span class="timeline__track" />
            <span class="timeline__open" style={{ left: x(openFrom), width: `calc(${x(openTo)} - ${x(openFrom)})` }} />
            {moments.map((m) => (
              <span key={m.key} class={`timeline__mark timeline__mark--${m.key}`} style={{ left: x(m.at) }}>
                {m.key === 'now' ? <span class="timeline__now">Now</span> : null}
              </span>
            ))}
          </div>
          <ol class="timeline__events">
            {moments.map((m) => (
              <li key={m.key} data-moment={m.key} class={`timeline__event timeline__event--${m.key}`}>
                <span class="timeline__what">{m.label}</span>{' '}
                {m.key === 'now' ? null : (
                  <>
                    <time dateTime={new Date(m.at).toISOString()}>{formatMoment(new Date(m.at).toISOString())}</time>{' '}
                    <span class="muted">({fromNow(m.at, now)})</span>
                  </>
                )}
              </li>
            ))}
          </ol>
        </>
      ) : (
        <p class="muted">No start or end date: the code works until it is paused{item.maxScans === null ? '' : ' or reaches its limit'}.</p>
      )}
      {item.maxScans === null ? null : <CapProgress item={item} max={item.maxScans} />}
    </section>
  );
}

function CapProgress({ item, max }: { item: QrItem; max: number }) {
  const used = Math.min(item.capCount / max, 1);
  return (
    <div class="cap" data-cap-count={item.capCount} data-max-scans={max}>
      <p class="cap__label">
        <strong>Scan limit:</strong> {formatCount(item.capCount)} of {formatCount(max)}{' '}
        {item.scanCapBasis === 'unique' ? 'unique scans' : 'scans'} used
        {item.capCount >= max ? ' (reached)' : ''}
      </p>
      <span class="cap__bar" aria-hidden="true">
        <span class={`cap__fill${used >= 1 ? ' cap__fill--full' : ''}`} style={{ width: `${Math.max(used * 100, used > 0 ? 1 : 0)}%` }} />
      </span>
      <p class="small muted">
        {item.scanCapBasis === 'unique'
          ? 'Each visitor counts once a day; bots and link previews never count.'
          : 'Counted like the scans above: bots and link previews never count.'}
      </p>
    </div>
  );
}
