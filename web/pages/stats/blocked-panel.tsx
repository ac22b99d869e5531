// Scans the code refused in the range: before it opened, after it expired, past its limit,
// or at its password. They are recorded to be seen here and never counted as scans.
import type { QrItem } from '../../api.ts';
import type { Blocked } from './attribution.ts';
import { formatCount } from './format.ts';

const KINDS: ReadonlyArray<{ key: keyof Blocked; label: string; help: string; set: (item: QrItem) => boolean }> = [
  { key: 'scheduled', label: 'Before it opened', help: 'Scanned before the code’s start date.', set: (i) => i.activatesAt !== null },
  { key: 'expired', label: 'After it expired', help: 'Scanned after the code’s end date.', set: (i) => i.expiresAt !== null },
  { key: 'capped', label: 'Past its limit', help: 'Scanned once the scan limit was reached.', set: (i) => i.maxScans !== null },
  { key: 'passwordRequired', label: 'Asked for the password', help: 'Visits shown the password form.', set: (i) => i.hasPassword },
  { key: 'passwordFailed', label: 'Wrong password', help: 'Typed a wrong password.', set: (i) => i.hasPassword },
];

/** Each reason the code has now, and any other that turned scans away in the range (a setting since removed). */
export function BlockedPanel({ item, blocked, days }: { item: QrItem; blocked: Blocked; days: number }) {
  const kinds = KINDS.filter((k) => k.set(item) || blocked[k.key] > 0);
  const total = kinds.reduce((n, k) => n + blocked[k.key], 0);
  return (
    <section class="card panel blocked" aria-labelledby="blocked-title">
      <h2 id="blocked-title">Blocked scans</h2>
      <p class="small muted">
        Scans the code turned away in the last {days} days. They are <strong>not counted</strong> in the scans above.
      </p>
      {total === 0 ? (
        <p class="muted">None in this range.</p>
      ) : (
        <dl class="blocked__list">
          {kinds.map((k) => (
            <div key={k.key} class="blocked__item" data-blocked={k.key} data-count={blocked[k.key]}>
              <dt>{k.label}</dt>
              <dd>
                <span class="blocked__num">{formatCount(blocked[k.key])}</span>
                <span class="small muted"> {k.help}</span>
              </dd>
            </div>
          ))}
        </dl>
      )}
    </section>
  );
}
