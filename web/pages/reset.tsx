// Setting a new password with a one-time reset link from an owner (or the CLI).
import { useState } from 'preact/hooks';
import { api } from '../api.ts';
import { Field } from '../components/field.tsx';
import { checks, useForm } from '../components/form.ts';
import { PublicLayout } from '../components/layout.tsx';
import { Button, FormError, Notice, Spinner } from '../components/ui.tsx';
import { Link } from '../router.ts';
import { useLinkCheck } from './use-link.ts';

export function ResetPage({ token }: { token: string }) {
  const link = useLinkCheck(() => api.resetPreview(token), [token]);
  const form = useForm({ password: '', confirm: '' });
  const [done, setDone] = useState(false);
  if (link.status === 'loading')
    return (
      <PublicLayout title="Set a new password">
        <Spinner />
      </PublicLayout>
    );
  if (link.status === 'bad') {
    return (
      <PublicLayout title="This reset link cannot be used">
        <p class="form-error">{link.message}</p>
        <p>Ask an owner of your account for a new one.</p>
      </PublicLayout>
    );
  }
  if (done) {
    return (
      <PublicLayout title="Password changed">
        <Notice kind="success">Your password is set, and you were signed out everywhere.</Notice>
        <p>
          <Link href="/sign-in">Sign in</Link>
        </p>
      </PublicLayout>
    );
  }
  const onSubmit = (e: Event) => {
    e.preventDefault();
    void form.submit(
      (v) => ({ password: checks.newPassword(v.password), confirm: v.confirm === v.password ? undefined : 'The two passwords differ' }),
      async (v) => {
        await api.resetPassword(token, v.password);
        setDone(true);
      },
    );
  };
  return (
    <PublicLayout title="Set a new password" intro={<p>For {link.data.email}.</p>}>
      <form onSubmit={onSubmit} noValidate>
        <FormError message={form.errors.form} />
        <input type="email" name="username" autoComplete="username" value={link.data.email} hidden readOnly />
        <Field
          label="New password"
          type="password"
          hint="At least 10 characters."
          autocomplete="new-password"
          required
          autofocus
          {...form.bind('password')}
        />
        <Field label="Repeat the new password" type="password" autocomplete="new-password" required {...form.bind('confirm')} />
        <Button type="submit" busy={form.busy}>
          Set password
        </Button>
      </form>
    </PublicLayout>
  );
}
