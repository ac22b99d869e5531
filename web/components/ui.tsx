// Small building blocks every page uses: buttons, the form's own error, notices,
// copyable one-time secrets, confirmations, dates.
import type { ComponentChildren, JSX } from 'preact';
import { useEffect, useRef, useState } from 'preact/hooks';

type ButtonProps = JSX.HTMLAttributes<HTMLButtonElement> & { disabled?: boolean; variant?: 'primary' | 'secondary' | 'danger' | 'link'; busy?: boolean; type?: 'button' | 'submit' };

export function Button({ variant = 'primary', busy, children, type = 'button', disabled, ...rest }: ButtonProps) {
  return (
    <button {...rest} type={type} class={`btn btn--${variant}`} disabled={Boolean(disabled) || busy} aria-busy={busy ? 'true' : undefined}>
      {children}
    </button>
  );
}

/** The error that belongs to no single field; focusable so it can be announced. */
export function FormError({ message }: { message: string | undefined }) {
  if (!message) return null;
  return (
    <p class="form-error" role="alert" tabIndex={-1}>
      {message}
    </p>
  );
}

export function Notice({ kind = 'info', children }: { kind?: 'info' | 'success' | 'warning'; children: ComponentChildren }) {
  return (
    <div class={`notice notice--${kind}`} role={kind === 'success' ? 'status' : undefined}>
      {children}
    </div>
  );
}

/** A secret shown once, with a copy button. */
export function CopyField({ label, value, id, multiline }: { label: string; value: string; id: string; multiline?: boolean }) {
  const [copied, setCopied] = useState(false);
  const input = useRef<HTMLInputElement & HTMLTextAreaElement>(null);
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(value);
    } catch {
      // No clipboard permission (http, old browser): select it for Ctrl+C instead.
      input.current?.select();
    }
    setCopied(true);
    setTimeout(() => setCopied(false), 2000);
  };
  return (
    <div class="copy">
      <label for={id}>{label}</label>
      <div class="copy__row">
        {multiline ? (
          <textarea id={id} ref={input} readOnly value={value} rows={4} onFocus={(e) => e.currentTarget.select()} spellcheck={false} />
        ) : (
          <input id={id} ref={input} readOnly value={value} onFocus={(e) => e.currentTarget.select()} spellcheck={false} />
        )}
        <Button variant="secondary" onClick={copy}>
          {copied ? 'Copied' : 'Copy'}
        </Button>
      </div>
      <span class="visually-hidden" aria-live="polite">
        {copied ? 'Copied to the clipboard' : ''}
      </span>
    </div>
  );
}

/** A button that asks once more, in place, before it does something that cannot be undone. */
export function ConfirmButton({ label, ariaLabel, confirmLabel, question, onConfirm }: { label: string; ariaLabel?: string; confirmLabel: string; question: string; onConfirm: () => Promise<void> }) {
  const [asking, setAsking] = useState(false);
  const [busy, setBusy] = useState(false);
  const yes = useRef<HTMLButtonElement>(null);
  useEffect(() => {
    if (asking) yes.current?.focus();
  }, [asking]);
  if (!asking) {
    return (
      <Button variant="secondary" aria-label={ariaLabel} onClick={() => setAsking(true)}>
        {label}
      </Button>
    );
  }
  return (
    <span class="confirm" role="group" aria-label={question}>
      <span class="confirm__q">{question}</span>
      <button
        ref={yes}
        type="button"
        class="btn btn--danger"
        disabled={busy}
        onClick={async () => {
          setBusy(true);
          try {
            await onConfirm();
          } finally {
            setBusy(false);
            setAsking(false);
          }
        }}
      >
        {confirmLabel}
      </button>
      <Button variant="secondary" onClick={() => setAsking(false)}>
        Cancel
      </Button>
    </span>
  );
}

const dateFormat = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' });

export function When({ iso, empty = 'never' }: { iso: string | null; empty?: string }) {
  if (iso === null) return <span class="muted">{empty}</span>;
  return <time dateTime={iso}>{dateFormat.format(new Date(iso))}</time>;
}

export function Spinner({ label = 'Loading…' }: { label?: string }) {
  return (
    <p class="loading" role="status">
      {label}
    </p>
  );
}
