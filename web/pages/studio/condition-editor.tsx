// One condition of a rule: what is checked (a picker of types), "is" or "is not" (before or
// after, for a date), and its values picked from real ones: checkboxes for systems, devices
// and weekdays, countries by name, times and dates from the browser's pickers, a time zone
// that starts as the browser's own.
import type { JSX } from 'preact';
import { useMemo } from 'preact/hooks';
import { describedBy, FieldError } from '../../components/field.tsx';
import { Button } from '../../components/ui.tsx';
import { browserZone } from './lifecycle-model.ts';
import {
  CHOICES,
  CONDITION_LABELS,
  CONDITION_TYPES,
  type ConditionDraft,
  type ConditionOp,
  type ConditionType,
  browserList,
  countryList,
  newCondition,
  timeZones,
  ZONED,
} from './rules-model.ts';

interface ConditionEditorProps {
  condition: ConditionDraft;
  index: number;
  error: string | undefined;
  onChange: (c: ConditionDraft) => void;
  onRemove: () => void;
}

type Input = JSX.TargetedEvent<HTMLInputElement>;
type Select = JSX.TargetedEvent<HTMLSelectElement>;

export function ConditionEditor({ condition: c, index, error, onChange, onRemove }: ConditionEditorProps) {
  const id = `f-${c.uid}`;
  const set = (patch: Partial<ConditionDraft>) => onChange({ ...c, ...patch });
  const ops: ReadonlyArray<{ value: ConditionOp; label: string }> =
    c.type === 'date'
      ? [
          { value: 'before', label: 'before' },
          { value: 'after', label: 'after' },
        ]
      : [
          { value: 'in', label: 'is' },
          { value: 'not_in', label: 'is not' },
        ];
  return (
    <div class={`condition${error ? ' condition--invalid' : ''}`} role="group" aria-labelledby={`${id}-label`}>
      <div class="condition__top">
        <p class="condition__label" id={`${id}-label`}>
          Condition {index + 1}
        </p>
        <Button variant="secondary" aria-label={`Remove condition ${index + 1}`} onClick={onRemove}>
          Remove
        </Button>
      </div>
      <div class="condition__head">
        <div class="field condition__type">
          <label for={`${id}-type`}>What is checked</label>
          <select
            id={`${id}-type`}
            value={c.type}
            onChange={(e: Select) => {
              const type = e.currentTarget.value as ConditionType;
              onChange({ ...newCondition(type), uid: c.uid });
            }}
          >
            {CONDITION_TYPES.map((t) => (
              <option key={t} value={t}>
                {CONDITION_LABELS[t]}
              </option>
            ))}
          </select>
        </div>
        <div class="field condition__op">
          <label for={`${id}-op`}>Match</label>
          <select id={`${id}-op`} value={c.op} onChange={(e: Select) => set({ op: e.currentTarget.value as ConditionOp })}>
            {ops.map((o) => (
              <option key={o.value} value={o.value}>
                {o.label}
              </option>
            ))}
          </select>
        </div>
      </div>
      <Values condition={c} id={id} error={error} set={set} />
      {ZONED.has(c.type) ? <ZoneSelect id={`${id}-tz`} value={c.tz} onChange={(tz) => set({ tz })} /> : null}
      <FieldError id={id} error={error} />
    </div>
  );
}

interface ValuesProps {
  condition: ConditionDraft;
  id: string;
  error: string | undefined;
  set: (patch: Partial<ConditionDraft>) => void;
}

function Values({ condition: c, id, error, set }: ValuesProps) {
  const invalid = error ? ('true' as const) : undefined;
  const errorId = error ? `${id}-error` : undefined;
  const choices = CHOICES[c.type];
  if (choices) {
    return (
      <fieldset class="field condition__choices">
        <legend class="visually-hidden">{CONDITION_LABELS[c.type]}</legend>
        {choices.map((o, i) => (
          <label class="check" key={o.value}>
            <input
              type="checkbox"
              id={i === 0 ? `${id}-values` : undefined}
              checked={c.values.includes(o.value)}
              aria-invalid={i === 0 ? invalid : undefined}
              aria-describedby={i === 0 ? errorId : undefined}
              onChange={(e: Input) =>
                set({
                  values: e.currentTarget.checked
                    ? choices.map((x) => x.value).filter((v) => v === o.value || c.values.includes(v))
                    : c.values.filter((v) => v !== o.value),
                })
              }
            />
            <span>{o.label}</span>
          </label>
        ))}
      </fieldset>
    );
  }
  switch (c.type) {
    case 'country':
      return (
        <ListPicker id={id} what="country" options={countryList()} values={c.values} error={error} onChange={(values) => set({ values })} />
      );
    case 'browser':
      return (
        <ListPicker id={id} what="browser" options={browserList()} values={c.values} error={error} onChange={(values) => set({ values })} />
      );
    case 'language':
      return (
        <TextValue
          id={`${id}-values`}
          label="Languages"
          hint="As the phone asks for them, separated by commas: de matches every German, en-US only American English"
          value={c.text}
          error={error}
          onInput={(text) => set({ text })}
        />
      );
    case 'query':
      return (
        <div class="condition__pair">
          <TextValue
            id={`${id}-key`}
            label="Parameter name"
            hint="e.g. ref in …?ref=flyer"
            value={c.key}
            error={error}
            onInput={(key) => set({ key })}
          />
          <TextValue
            id={`${id}-values`}
            label="Values (optional)"
            hint="Separated by commas; empty matches whenever the parameter is there"
            value={c.text}
            error={undefined}
            onInput={(text) => set({ text })}
          />
        </div>
      );
    case 'date':
      return (
        <div class="field">
          <label for={`${id}-values`}>Date and time</label>
          <p class="hint" id={`${id}-values-hint`}>
            In your time zone, {browserZone()}
          </p>
          <input
            id={`${id}-values`}
            type="datetime-local"
            value={c.values[0] ?? ''}
            aria-invalid={invalid}
            aria-describedby={describedBy(`${id}-values`, true, undefined) + (errorId ? ` ${errorId}` : '')}
            onInput={(e: Input) => set({ values: [e.currentTarget.value] })}
          />
        </div>
      );
    case 'time':
      return (
        <div class="condition__pair">
          <TimeValue id={`${id}-from`} label="From" value={c.from} invalid={invalid} errorId={errorId} onInput={(from) => set({ from })} />
          <TimeValue id={`${id}-to`} label="To" value={c.to} invalid={undefined} errorId={undefined} onInput={(to) => set({ to })} />
          <p class="hint condition__wide">Every day in this window; one past midnight (22:00 to 06:00) works too.</p>
        </div>
      );
    default:
      return null;
  }
}

interface TextValueProps {
  id: string;
  label: string;
  hint: string;
  value: string;
  error: string | undefined;
  onInput: (v: string) => void;
}

function TextValue({ id, label, hint, value, error, onInput }: TextValueProps) {
  return (
    <div class="field">
      <label for={id}>{label}</label>
      <p class="hint" id={`${id}-hint`}>
        {hint}
      </p>
      <input
        id={id}
        type="text"
        value={value}
        spellcheck={false}
        autoComplete="off"
        aria-invalid={error ? 'true' : undefined}
        aria-describedby={`${id}-hint`}
        onInput={(e: Input) => onInput(e.currentTarget.value)}
      />
    </div>
  );
}

function TimeValue(props: {
  id: string;
  label: string;
  value: string;
  invalid: 'true' | undefined;
  errorId: string | undefined;
  onInput: (v: string) => void;
}) {
  return (
    <div class="field">
      <label for={props.id}>{props.label}</label>
      <input
        id={props.id}
        type="time"
        value={props.value}
        aria-invalid={props.invalid}
        aria-describedby={props.errorId}
        onInput={(e: Input) => props.onInput(e.currentTarget.value)}
      />
    </div>
  );
}

/** The zone a time or weekday is read in; the browser's own first. */
function ZoneSelect({ id, value, onChange }: { id: string; value: string; onChange: (tz: string) => void }) {
  const zones = useMemo(timeZones, []);
  return (
    <div class="field">
      <label for={id}>Time zone</label>
      <select id={id} value={value} onChange={(e: Select) => onChange(e.currentTarget.value)}>
        {zones.map((z) => (
          <option key={z} value={z}>
            {z === browserZone() ? `${z} (yours)` : z}
          </option>
        ))}
      </select>
    </div>
  );
}

/** Values by name (countries, browsers): a list to add from, and the ones chosen, each with a button that removes it. */
function ListPicker({
  id,
  what,
  options,
  values,
  error,
  onChange,
}: {
  id: string;
  /** "country": the list's label says "Add a country". */
  what: string;
  options: ReadonlyArray<{ code: string; name: string }>;
  values: string[];
  error: string | undefined;
  onChange: (values: string[]) => void;
}) {
  const name = (code: string) => options.find((o) => o.code === code)?.name ?? code;
  return (
    <div class="field">
      <label for={`${id}-values`}>Add a {what}</label>
      <select
        id={`${id}-values`}
        value=""
        aria-invalid={error ? 'true' : undefined}
        aria-describedby={[`${id}-chosen`, error ? `${id}-error` : ''].filter(Boolean).join(' ')}
        onChange={(e: Select) => {
          const code = e.currentTarget.value;
          if (code && !values.includes(code)) onChange([...values, code]);
        }}
      >
        <option value="">Choose a {what}…</option>
        {options.map((o) => (
          <option key={o.code} value={o.code} disabled={values.includes(o.code)}>
            {o.name}
          </option>
        ))}
      </select>
      <ul class="chips" id={`${id}-chosen`} aria-label={`Chosen: ${what}`}>
        {values.length === 0 ? <li class="muted small">None yet</li> : null}
        {values.map((code) => (
          <li class="chip" key={code}>
            {name(code)}
            <button
              type="button"
              class="chip__remove"
              aria-label={`Remove ${name(code)}`}
              onClick={() => {
                onChange(values.filter((v) => v !== code));
                // The button goes with its value: the focus goes back to the list to add from.
                document.getElementById(`${id}-values`)?.focus();
              }}
            >
              ×
            </button>
          </li>
        ))}
      </ul>
    </div>
  );
}
