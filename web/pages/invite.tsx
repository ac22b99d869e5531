// Accepting an invite: a new person picks a password; someone with a user here gives theirs.
// Someone already signed in joins as themselves with their password alone (the API still
// asks for the password: a session left open on a shared computer must not be enough).
import { useState } from 'preact/hooks';
import { api } from '../api.ts';
import { byId, useFocusLater } from '../components/announce.ts';
import { Field } from '../components/field.tsx';
import { checks, useForm } from '../components/form.ts';
import { PublicLayout } from '../components/layout.tsx';
import { Button, FormError, Spinner } from '../components/ui.tsx';
import { Link, navigate } from '../router.ts';
import { setSession, useAppState } from '../store.ts';
import { useLinkCheck } from './use-link.ts';

const ROLE_TEXT = { owner: 'an owner', editor: 'an editor', viewer: 'a viewer' } as const;

export function InvitePage({ token }: { token: string }) {
  // The app shows this page before the session is read; once it is, someone signed in is
  // offered their codes rather than a sign-in.
  const { session } = useAppState();
  const link = useLinkCheck(() => api.invitePreview(token), [token]);
  const form = useForm({ email: '', password: '' });
  /** Signed in, but joining with another user's email and password. */
  const [asOther, setAsOther] = useState(false);
  const focusLater = useFocusLater();
  if (link.status === 'loading')
    return (
      <PublicLayout title="Join an account">
        <Spinner />
      </PublicLayout>
    );
  if (link.status === 'bad') {
    return (
      <PublicLayout title="This invite cannot be used">
        <p class="form-error">{link.message}</p>
        <p>
          Ask the account’s owner for a new invite, or{' '}
          {session ? <Link href="/codes">go to your codes</Link> : <Link href="/sign-in">sign in</Link>}.
        </p>
      </PublicLayout>
    );
  }
  const me = session && !asOther ? session.user.email : null;
  const onSubmit = (e: Event) => {
    e.preventDefault();
    void form.submit(
      (v) => ({
        email: me === null ? checks.email(v.email) : undefined,
        password: checks.required(me === null ? 'a password' : 'your password')(v.password),
      }),
      async (v) => {
        setSession(await api.acceptInvite(token, me ?? v.email, v.password));
        navigate('/codes', { replace: true });
      },
    );
  };
  const { accountName, role } = link.data;
  if (me !== null) {
    return (
      <PublicLayout
        title={`Join ${accountName}`}
        intro={
          <p>
            You are invited as {ROLE_TEXT[role]}. You are signed in as <strong>{me}</strong>: give your password to join with this user.
          </p>
        }
      >
        <form onSubmit={onSubmit} noValidate>
          <FormError message={form.errors.form} />
          {/* For password managers: the user the password belongs to (hidden, it is said above). */}
          <input type="email" name="username" autoComplete="username" value={me} readOnly hidden />
          <Field label="Your password" type="password" autocomplete="current-password" required {...form.bind('password')} />
          <Button type="submit" busy={form.busy}>
            Join as {me}
          </Button>
        </form>
        <p>
          <button
            type="button"
            class="btn btn--link"
            onClick={() => {
              form.setErrors({});
              setAsOther(true);
              // The button goes with this form: the focus goes to the field that starts the other one.
              focusLater(byId('f-email'));
            }}
          >
            Join with another email instead
          </button>
        </p>
      </PublicLayout>
    );
  }
  return (
    <PublicLayout
      title={`Join ${accountName}`}
      intro={
        <p>
          You are invited as {ROLE_TEXT[role]}. New here? Choose a password of at least 10 characters. Already have a user on this instance?
          Use its email and password.
        </p>
      }
    >
      <form onSubmit={onSubmit} noValidate>
        <FormError message={form.errors.form} />
        <Field label="Email" type="email" autocomplete="username" required autofocus {...form.bind('email')} />
        <Field label="Password" type="password" autocomplete="new-password" required {...form.bind('password')} />
        <Button type="submit" busy={form.busy}>
          Join {accountName}
        </Button>
      </form>
    </PublicLayout>
  );
}
