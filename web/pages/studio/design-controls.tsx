// The controls of the design panel. Each shows what it allows (choices, range, format) and
// its error under it, as the API would word it; ids derive from the design field's name.
import type { JSX } from 'preact';
import { FieldError, describedBy } from '../../components/field.tsx';

interface Base {
  name: string;
  label: string;
  error?: string | undefined;
  disabled?: boolean;
}

export function ChoiceControl<T extends string>({
  name,
  label,
  value,
  options,
  onChange,
  labels,
  disabled,
  error,
}: Base & { value: T; options: readonly T[]; onChange: (v: T) => void; labels?: Partial<Record<T, string>> }) {
  const id = `d-${name}`;
  return (
    <div class="field">
      <label for={id}>{label}</label>
      <p class="hint" id={`${id}-hint`}>
        {options.length} choices
      </p>
      <select
        id={id}
        name={name}
        value={value}
        disabled={disabled}
        aria-describedby={describedBy(id, true, error)}
        onChange={(e: JSX.TargetedEvent<HTMLSelectElement>) => onChange(e.currentTarget.value as T)}
      >
        {options.map((o) => (
          <option key={o} value={o}>
            {labels?.[o] ?? o}
          </option>
        ))}
      </select>
      <FieldError id={id} error={error} />
    </div>
  );
}

/** `1a73e8` (as copied from many tools) is taken as `#1a73e8`: only hex digits of a colour's length get the `#`. */
export function withHash(v: string): string {
  return /^([0-9a-f]{3}|[0-9a-f]{6}|[0-9a-f]{8})$/i.test(v) ? `#${v}` : v;
}

export function ColorControl({ name, label, value, onChange, error, disabled }: Base & { value: string; onChange: (v: string) => void }) {
  const id = `d-${name}`;
  // The picker knows only #rrggbb; the text box takes every form the API accepts, alpha too.
  const pickerValue = /^#[0-9a-f]{6}/i.test(value) ? value.slice(0, 7) : '#000000';
  return (
    <div class={`field color-control${error ? ' field--invalid' : ''}`}>
      <label for={id}>{label}</label>
      <p class="hint" id={`${id}-hint`}>
        #rgb, #rrggbb or #rrggbbaa
      </p>
      <div class="color-control__row">
        <input
          type="color"
          aria-label={`${label}, picker`}
          value={pickerValue}
          disabled={disabled}
          onInput={(e: JSX.TargetedEvent<HTMLInputElement>) => onChange(e.currentTarget.value + value.slice(7))}
        />
        <input
          id={id}
          name={name}
          type="text"
          value={value}
          disabled={disabled}
          spellcheck={false}
          autoComplete="off"
          aria-invalid={error ? 'true' : undefined}
          aria-describedby={describedBy(id, true, error)}
          onInput={(e: JSX.TargetedEvent<HTMLInputElement>) => onChange(withHash(e.currentTarget.value.trim()))}
        />
      </div>
      <FieldError id={id} error={error} />
    </div>
  );
}

export function RangeControl({
  name,
  label,
  value,
  min,
  max,
  step,
  unit = '',
  hint,
  onChange,
  error,
  disabled,
}: Base & { value: number; min: number; max: number; step: number; unit?: string; hint?: string; onChange: (v: number) => void }) {
  const id = `d-${name}`;
  const set = (raw: string) => {
    const v = Number(raw);
    if (raw.trim() !== '' && Number.isFinite(v)) onChange(v);
  };
  return (
    <div class={`field range-control${error ? ' field--invalid' : ''}`}>
      <label for={id}>{label}</label>
      <p class="hint" id={`${id}-hint`}>
        {hint ?? `${min}${unit} to ${max}${unit}`}
      </p>
      <div class="range-control__row">
        <input
          type="range"
          aria-label={`${label}, slider`}
          min={min}
          max={max}
          step={step}
          value={value}
          disabled={disabled}
          onInput={(e: JSX.TargetedEvent<HTMLInputElement>) => set(e.currentTarget.value)}
        />
        <input
          id={id}
          name={name}
          type="number"
          min={min}
          max={max}
          step={step}
          value={value}
          disabled={disabled}
          aria-invalid={error ? 'true' : undefined}
          aria-describedby={describedBy(id, true, error)}
          onInput={(e: JSX.TargetedEvent<HTMLInputElement>) => set(e.currentTarget.value)}
        />
      </div>
      <FieldError id={id} error={error} />
    </div>
  );
}

export function ToggleControl({ name, label, checked, onChange, disabled }: Base & { checked: boolean; onChange: (v: boolean) => void }) {
  return (
    <label class="check">
      <input
        type="checkbox"
        name={name}
        id={`d-${name}`}
        checked={checked}
        disabled={disabled}
        onChange={(e: JSX.TargetedEvent<HTMLInputElement>) => onChange(e.currentTarget.checked)}
      />
      <span>{label}</span>
    </label>
  );
}

export function TextControl({
  name,
  label,
  value,
  maxLength,
  onChange,
  error,
  disabled,
}: Base & { value: string; maxLength: number; onChange: (v: string) => void }) {
  const id = `d-${name}`;
  return (
    <div class={`field${error ? ' field--invalid' : ''}`}>
      <label for={id}>{label}</label>
      <p class="hint" id={`${id}-hint`}>
        {[...value].length} of at most {maxLength} characters
      </p>
      <input
        id={id}
        name={name}
        type="text"
        value={value}
        disabled={disabled}
        aria-invalid={error ? 'true' : undefined}
        aria-describedby={describedBy(id, true, error)}
        onInput={(e: JSX.TargetedEvent<HTMLInputElement>) => onChange(e.currentTarget.value)}
      />
      <FieldError id={id} error={error} />
    </div>
  );
}
