// Form state: values, one error per field (shown next to it) or for the whole form,
// local checks before the request, server errors mapped to the field they name.
import { useEffect, useState } from 'preact/hooks';
import { ApiError } from '../api.ts';

export type Errors<F extends string> = Partial<Record<F | 'form', string>>;

export function useForm<F extends string>(initial: Record<F, string>) {
  const [values, setValues] = useState(initial);
  const [errors, setErrors] = useState<Errors<F>>({});
  const [busy, setBusy] = useState(false);
  /** Counts refused submits. Only a refused submit moves the focus: clearing a field's error
   *  as the user types must not, or each keystroke would send the focus to the next field
   *  still marked (and the rest of the typing into it). */
  const [failures, setFailures] = useState(0);

  // After a refused submit, focus moves to the first field in error (or the form's message), once.
  useEffect(() => {
    if (failures === 0) return;
    const first = document.querySelector<HTMLElement>('[aria-invalid="true"], .form-error');
    first?.focus();
  }, [failures]);

  const bind = (name: F) => ({
    name,
    value: values[name],
    error: errors[name],
    onInput: (v: string) => {
      setValues((old) => ({ ...old, [name]: v }));
      if (errors[name]) setErrors((old) => ({ ...old, [name]: undefined }));
    },
  });

  async function submit(check: (v: Record<F, string>) => Errors<F>, action: (v: Record<F, string>) => Promise<void>): Promise<void> {
    const local = Object.fromEntries(Object.entries(check(values)).filter(([, m]) => m)) as Errors<F>;
    if (Object.keys(local).length > 0) {
      setErrors(local);
      setFailures((n) => n + 1);
      return;
    }
    setErrors({});
    setBusy(true);
    try {
      await action(values);
    } catch (err) {
      setErrors(errorsFrom<F>(err, Object.keys(initial) as F[]));
      setFailures((n) => n + 1);
    } finally {
      setBusy(false);
    }
  }

  return { values, setValues, errors, setErrors, busy, bind, submit };
}

export function errorsFrom<F extends string>(err: unknown, fields: F[]): Errors<F> {
  if (err instanceof ApiError) {
    if (err.field !== null && (fields as string[]).includes(err.field)) return { [err.field]: err.message } as Errors<F>;
    if (err.status === 429 && err.retryAfter)
      return { form: `Too many attempts. Try again in ${Math.ceil(err.retryAfter / 60)} min.` } as Errors<F>;
    return { form: err.message } as Errors<F>;
  }
  return { form: 'Something went wrong. Try again.' } as Errors<F>;
}

export const checks = {
  email: (v: string) => (/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(v.trim()) ? undefined : 'Enter an email address such as ada@example.com'),
  newPassword: (v: string) => ([...v].length >= 10 ? undefined : 'Use at least 10 characters'),
  required: (label: string) => (v: string) => (v.trim() === '' ? `Enter ${label}` : undefined),
};
