import { useState } from 'preact/hooks';
import { api } from '../api.ts';
import { Field } from '../components/field.tsx';
import { checks, useForm } from '../components/form.ts';
import { PublicLayout } from '../components/layout.tsx';
import { Button, FormError } from '../components/ui.tsx';
import { Link, navigate } from '../router.ts';
import { setSession, useAppState } from '../store.ts';
import { hasStashedDraft } from './studio/draft-stash.ts';

export function SignInPage({ next }: { next?: string }) {
  const { instance, sessionEnded, signedOut } = useAppState();
  // Read once: the kept edits may hold a large logo, and the form renders on every keystroke.
  const [draftKept] = useState(hasStashedDraft);
  const form = useForm({ email: '', password: '' });
  const onSubmit = (e: Event) => {
    e.preventDefault();
    void form.submit(
      (v) => ({ email: checks.email(v.email), password: checks.required('your password')(v.password) }),
      async (v) => {
        setSession(await api.signIn(v.email, v.password));
        navigate(next?.startsWith('/') ? next : '/codes', { replace: true });
      },
    );
  };
  return (
    <PublicLayout title="Sign in">
      {sessionEnded ? (
        <p class="notice notice--warning" role="alert">
          Your session has ended (it expired, or you were signed out in another window). Sign in again to go on.
          {draftKept ? ' Your unsaved changes are kept in this tab and offered back once you are in.' : ''}
        </p>
      ) : null}
      {/* Said aloud by the Sign out button (announce); shown here for everyone. */}
      {signedOut ? <p class="notice notice--success">You are signed out.</p> : null}
      {instance?.setupRequired ? (
        <p class="notice notice--warning">
          This instance is not set up yet. Open the setup link the server printed at start (or run <code>qrtrack setup-link</code>).
        </p>
      ) : null}
      <form onSubmit={onSubmit} noValidate>
        <FormError message={form.errors.form} />
        <Field label="Email" type="email" autocomplete="username" required autofocus {...form.bind('email')} />
        <Field label="Password" type="password" autocomplete="current-password" required {...form.bind('password')} />
        <Button type="submit" busy={form.busy}>
          Sign in
        </Button>
      </form>
      <div class="muted small sign-in__forgot">
        <p>Forgot your password? Ask an owner of your account for a reset link.</p>
        <p>
          The only owner, or nobody can sign in? Whoever runs the server makes one there:{' '}
          <code>npm run -s qrtrack -- users reset-link you@example.com</code> (valid 24 hours).
        </p>
      </div>
      {instance?.signup === 'open' ? (
        <p class="small">
          New here? <Link href="/sign-up">Create an account</Link>
        </p>
      ) : null}
    </PublicLayout>
  );
}
