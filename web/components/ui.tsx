// Small building blocks every page uses: buttons, the form's own error, notices,
// copyable one-time secrets, confirmations, dates.
import type { ComponentChildren, JSX } from 'preact';
import { useEffect, useRef, useState } from 'preact/hooks';

type ButtonProps = JSX.HTMLAttributes<HTMLButtonElement> & {
  disabled?: boolean;
  variant?: 'primary' | 'secondary' | 'danger' | 'link';
  busy?: boolean;
  type?: 'button' | 'submit';
};

/**
 * A button. While `busy` it is aria-disabled and ignores clicks (and the form submit it would
 * make) but is not `disabled`: a disabled button loses the keyboard focus, which then starts
 * again at the top of the page once the work is done.
 */
export function Button({ variant = 'primary', busy, children, type = 'button', disabled, onClick, ...rest }: ButtonProps) {
  return (
    <button
      {...rest}
      type={type}
      class={`btn btn--${variant}`}
      disabled={Boolean(disabled)}
      aria-disabled={busy ? 'true' : undefined}
      aria-busy={busy ? 'true' : undefined}
      onClick={(e) => {
        if (busy) {
          e.preventDefault();
          return;
        }
        onClick?.(e);
      }}
    >
      {children}
    </button>
  );
}

/** The error that belongs to no single field; focusable so it can be announced. */
export function FormError({ message, id }: { message: string | undefined; id?: string }) {
  if (!message) return null;
  return (
    <p class="form-error" role="alert" tabIndex={-1} id={id}>
      {message}
    </p>
  );
}

/** A message on the page. Not a live region (one rendered with its text is often not heard):
 *  what has to be heard is said with announce(), or the focus is moved to it (`id`, tabIndex). */
export function Notice({
  kind = 'info',
  id,
  children,
}: {
  kind?: 'info' | 'success' | 'warning';
  id?: string;
  children: ComponentChildren;
}) {
  return (
    <div class={`notice notice--${kind}`} id={id} tabIndex={id ? -1 : undefined}>
      {children}
    </div>
  );
}

/** A secret shown once, with a copy button. */
export function CopyField({
  label,
  value,
  id,
  multiline,
  describedBy,
}: {
  label: string;
  value: string;
  id: string;
  multiline?: boolean;
  describedBy?: string;
}) {
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
          <textarea
            id={id}
            ref={input}
            aria-describedby={describedBy}
            readOnly
            value={value}
            rows={4}
            onFocus={(e) => e.currentTarget.select()}
            spellcheck={false}
          />
        ) : (
          <input
            id={id}
            ref={input}
            aria-describedby={describedBy}
            readOnly
            value={value}
            onFocus={(e) => e.currentTarget.select()}
            spellcheck={false}
          />
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

/**
 * A button that asks once more, in place, before it does something that cannot be undone.
 * Cancel and Escape put the focus back on the button. After the action the page moves the
 * focus to what happened (`onConfirm` does it); if it does not and the button is still
 * there, the focus comes back to it rather than falling to the page.
 */
export function ConfirmButton({
  label,
  ariaLabel,
  confirmLabel,
  question,
  onConfirm,
}: {
  label: string;
  ariaLabel?: string;
  confirmLabel: string;
  question: string;
  onConfirm: () => Promise<void>;
}) {
  const [asking, setAsking] = useState(false);
  const [busy, setBusy] = useState(false);
  const [back, setBack] = useState<'always' | 'if-lost' | null>(null);
  const yes = useRef<HTMLButtonElement>(null);
  const trigger = useRef<HTMLButtonElement>(null);
  useEffect(() => {
    if (asking) yes.current?.focus();
  }, [asking]);
  useEffect(() => {
    if (back === null || asking) return;
    const lost = document.activeElement === null || document.activeElement === document.body;
    if (back === 'always' || lost) trigger.current?.focus();
    setBack(null);
  }, [back, asking]);
  const cancel = () => {
    setAsking(false);
    setBack('always');
  };
  if (!asking) {
    return (
      <button ref={trigger} type="button" class="btn btn--secondary" aria-label={ariaLabel} onClick={() => setAsking(true)}>
        {label}
      </button>
    );
  }
  return (
    <span
      class="confirm"
      role="group"
      aria-label={question}
      onKeyDown={(e) => {
        if (e.key === 'Escape' && !busy) {
          e.preventDefault();
          cancel();
        }
      }}
    >
      <span class="confirm__q">{question}</span>
      <button
        ref={yes}
        type="button"
        class="btn btn--danger"
        aria-disabled={busy ? 'true' : undefined}
        onClick={async () => {
          if (busy) return;
          setBusy(true);
          try {
            await onConfirm();
          } finally {
            setBusy(false);
            setAsking(false);
            setBack('if-lost');
          }
        }}
      >
        {confirmLabel}
      </button>
      <Button variant="secondary" onClick={cancel}>
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
