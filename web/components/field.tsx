// A labelled input with its hint and its error right below it, wired for screen readers.
import type { JSX } from 'preact';

export interface FieldProps {
  label: string;
  name: string;
  value: string;
  onInput: (value: string) => void;
  error?: string | undefined;
  hint?: string;
  type?: 'text' | 'email' | 'password' | 'search' | 'url' | 'number' | 'datetime-local';
  autocomplete?: string;
  required?: boolean;
  autofocus?: boolean;
  maxLength?: number;
  min?: number;
  /** Off for fields of several words in one sentence (a UTM campaign). */
  spellcheck?: boolean;
  /** Counts the characters (as the API does, by code point) against this limit, under the field. */
  countTo?: number;
}

/** The ids a control's aria-describedby names: its hint (when shown) and its error (when any). */
export function describedBy(id: string, hint: boolean, error: string | undefined): string | undefined {
  return [hint ? `${id}-hint` : '', error ? `${id}-error` : ''].filter(Boolean).join(' ') || undefined;
}

/** The error under a control, with the id its aria-describedby names. */
export function FieldError({ id, error }: { id: string; error: string | undefined }) {
  return error ? (
    <p class="error" id={`${id}-error`}>
      {error}
    </p>
  ) : null;
}

export function Field({
  label,
  name,
  value,
  onInput,
  error,
  hint,
  type = 'text',
  autocomplete,
  required,
  autofocus,
  maxLength,
  min,
  spellcheck,
  countTo,
}: FieldProps) {
  const id = `f-${name}`;
  const count = countTo === undefined ? null : [...value].length;
  return (
    <div class={`field${error ? ' field--invalid' : ''}`}>
      <label for={id}>
        {label}
        {required ? null : <span class="optional"> (optional)</span>}
      </label>
      {hint ? (
        <p class="hint" id={`${id}-hint`}>
          {hint}
        </p>
      ) : null}
      <input
        id={id}
        name={name}
        type={type}
        value={value}
        autoComplete={autocomplete}
        autoFocus={autofocus}
        maxLength={maxLength}
        min={min}
        spellcheck={spellcheck}
        aria-invalid={error ? 'true' : undefined}
        aria-describedby={
          [describedBy(id, Boolean(hint), error), count === null ? '' : `${id}-count`].filter(Boolean).join(' ') || undefined
        }
        aria-required={required ? 'true' : undefined}
        onInput={(e: JSX.TargetedEvent<HTMLInputElement>) => onInput(e.currentTarget.value)}
      />
      {count !== null && countTo !== undefined ? (
        <p class={`counter${count > countTo ? ' counter--over' : ''}`} id={`${id}-count`}>
          {count} of {countTo} characters{count > countTo ? `: ${count - countTo} too many` : ''}
        </p>
      ) : null}
      <FieldError id={id} error={error} />
    </div>
  );
}
