// The "Schedule & limits" card: when the code works, how many scans it takes, where a visitor
// goes when it does not, its password, and (for codes that redirect) the query string it
// passes on. Every field is optional; times are read in the browser's zone and sent as UTC.
import type { JSX } from 'preact';
import { Field, FieldError } from '../../components/field.tsx';
import { Button } from '../../components/ui.tsx';
import {
  browserZone,
  FALLBACK_STATES,
  type FallbackState,
  type LifecycleDraft,
  type PasswordDraft,
  type ScanCapBasis,
} from './lifecycle-model.ts';
import type { QrItem } from '../../api.ts';
import { PasswordFields } from './password-fields.tsx';
import { PassthroughFields } from './passthrough-fields.tsx';

export interface SchedulePanelProps {
  lifecycle: LifecycleDraft;
  password: PasswordDraft;
  /** The stored code has a password (it is never read back). */
  hasPassword: boolean;
  /** What the stored code does now (computed by the server when read); undefined for a new code. */
  status: QrItem['status'] | undefined;
  /** Scans counted toward the stored cap so far; undefined for a new code. */
  capCount: number | undefined;
  /** The kind redirects, so the query string fields apply. */
  redirects: boolean;
  errors: Record<string, string>;
  shown: (field: string) => boolean;
  onLifecycle: (patch: Partial<LifecycleDraft>, touched: string | null) => void;
  onPassword: (password: PasswordDraft, touched: string | null) => void;
}

const FALLBACK_LABELS: Record<FallbackState, string> = {
  scheduled: 'Before it starts working',
  expired: 'After it stops working',
  capped: 'Once the scan limit is reached',
};

/** The stored code's status in plain words, as of the last load or save. */
const STATUS_WORDS: Record<QrItem['status'], string> = {
  active: 'Working: the short link opens',
  paused: 'Paused: the short link answers “not found”',
  scheduled: 'Not open yet: the short link says when it opens',
  expired: 'Expired: the short link says so',
  capped: 'Scan limit reached: the short link says so',
};

const BASES: ReadonlyArray<{ value: ScanCapBasis; label: string; hint: string }> = [
  { value: 'human', label: 'Every scan by a person', hint: 'Bots, link previews and prefetches never count.' },
  { value: 'unique', label: 'Each person once a day', hint: 'The same phone scanning again that day does not count again.' },
];

export function SchedulePanel(props: SchedulePanelProps) {
  const { lifecycle: l, errors, shown, onLifecycle } = props;
  const error = (f: string) => (shown(f) ? errors[f] : undefined);
  const zone = browserZone();
  return (
    <section class="card" aria-labelledby="schedule-h">
      <h2 id="schedule-h">Schedule &amp; limits</h2>
      <p class="hint">All optional: without them the code works from now on, for every scan.</p>
      {props.status ? (
        <p class={`schedule__status schedule__status--${props.status}`}>
          <span class="muted">As saved:</span> {STATUS_WORDS[props.status]}
        </p>
      ) : null}
      <fieldset class="field schedule__group">
        <legend>When the code works</legend>
        <p class="hint" id="schedule-zone">
          Times in your time zone, <strong>{zone}</strong>
        </p>
        <div class="schedule__pair">
          <DateField
            name="activatesAt"
            label="Starts working at"
            hint="Before then the short link says when it opens"
            value={l.activatesAt}
            error={error('activatesAt')}
            onInput={(v) => onLifecycle({ activatesAt: v }, 'activatesAt')}
          />
          <DateField
            name="expiresAt"
            label="Stops working at"
            hint="From then on the short link says the code has expired"
            value={l.expiresAt}
            error={error('expiresAt')}
            onInput={(v) => onLifecycle({ expiresAt: v }, 'expiresAt')}
          />
        </div>
      </fieldset>
      <fieldset class="field schedule__group">
        <legend>Scan limit</legend>
        <Field
          label="Stop after this many scans"
          name="maxScans"
          type="number"
          min={1}
          value={l.maxScans}
          hint={capHint(props.capCount, l.maxScans)}
          error={error('maxScans')}
          onInput={(v) => onLifecycle({ maxScans: v }, 'maxScans')}
        />
        <fieldset class="field schedule__basis" disabled={l.maxScans.trim() === ''}>
          <legend>What counts toward the limit</legend>
          {BASES.map((b) => (
            <label class="check" key={b.value}>
              <input
                type="radio"
                name="scanCapBasis"
                value={b.value}
                checked={l.scanCapBasis === b.value}
                onChange={() => onLifecycle({ scanCapBasis: b.value }, null)}
              />
              <span>
                {b.label}
                <span class="block muted small">{b.hint}</span>
              </span>
            </label>
          ))}
        </fieldset>
      </fieldset>
      <fieldset class="field schedule__group">
        <legend>Where visitors go instead</legend>
        <p class="hint">Without an address, the short link shows a page that says why the code does not open.</p>
        {FALLBACK_STATES.map((s) => (
          <Field
            key={s}
            label={FALLBACK_LABELS[s]}
            name={`fallbackUrls.${s}`}
            type="url"
            value={l.fallbackUrls[s]}
            error={error(`fallbackUrls.${s}`)}
            onInput={(v) => onLifecycle({ fallbackUrls: { ...l.fallbackUrls, [s]: v } }, `fallbackUrls.${s}`)}
          />
        ))}
      </fieldset>
      <PasswordFields password={props.password} hasPassword={props.hasPassword} error={error('password')} onChange={props.onPassword} />
      {props.redirects ? <PassthroughFields lifecycle={l} error={error} onChange={onLifecycle} /> : null}
    </section>
  );
}

function capHint(capCount: number | undefined, maxScans: string): string {
  const base = 'Then the short link says the code has reached its limit. Empty: no limit.';
  return capCount === undefined || maxScans.trim() === '' ? base : `${capCount.toLocaleString()} counted so far. ${base}`;
}

interface DateFieldProps {
  name: string;
  label: string;
  hint: string;
  value: string;
  error: string | undefined;
  onInput: (v: string) => void;
}

/** A date and time in the browser's zone, with a button that empties it (a half-typed date cannot be cleared by keys alone). */
function DateField({ name, label, hint, value, error, onInput }: DateFieldProps) {
  const id = `f-${name}`;
  return (
    <div class={`field${error ? ' field--invalid' : ''}`}>
      <label for={id}>
        {label}
        <span class="optional"> (optional)</span>
      </label>
      <p class="hint" id={`${id}-hint`}>
        {hint}
      </p>
      <div class="schedule__date">
        <input
          id={id}
          name={name}
          type="datetime-local"
          value={value}
          aria-invalid={error ? 'true' : undefined}
          aria-describedby={[`${id}-hint`, 'schedule-zone', error ? `${id}-error` : ''].filter(Boolean).join(' ')}
          onInput={(e: JSX.TargetedEvent<HTMLInputElement>) => onInput(e.currentTarget.value)}
        />
        {value !== '' ? (
          <Button variant="secondary" aria-label={`Clear “${label}”`} onClick={() => onInput('')}>
            Clear
          </Button>
        ) : null}
      </div>
      <FieldError id={id} error={error} />
    </div>
  );
}
