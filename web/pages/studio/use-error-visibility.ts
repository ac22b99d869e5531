// Which of the studio form's fields show their errors. An edited field the focus has left
// shows them, and follows each keystroke from then on, so a fix clears the error at once; a
// field still being typed in for the first time shows none ("htt" is not yet a wrong
// address). After a save attempt every field shows its errors.
import { useState } from 'preact/hooks';

export interface ErrorVisibility {
  shown(field: string): boolean;
  /** The field was edited (null: an edit of no named field). */
  touch(field: string | null): void;
  /** The form's focusout: the field left, found by its id f-<field> (Field, ContentPanel). */
  leave(e: FocusEvent): void;
  /** A save was attempted. */
  submit(): void;
  /** A fresh start: after a save, or edits restored. */
  reset(): void;
}

export function useErrorVisibility(): ErrorVisibility {
  const [touched, setTouched] = useState<Set<string>>(new Set());
  const [left, setLeft] = useState<Set<string>>(new Set());
  const [submitted, setSubmitted] = useState(false);
  return {
    shown: (f) => submitted || left.has(f),
    touch: (f) => {
      if (f !== null && !touched.has(f)) setTouched(new Set(touched).add(f));
    },
    leave: (e) => {
      const id = e.target instanceof HTMLElement ? e.target.id : '';
      const f = id.startsWith('f-') ? id.slice(2) : null;
      if (f !== null && touched.has(f) && !left.has(f)) setLeft(new Set(left).add(f));
    },
    submit: () => setSubmitted(true),
    reset: () => {
      setTouched(new Set());
      setLeft(new Set());
      setSubmitted(false);
    },
  };
}
