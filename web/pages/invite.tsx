// Accepting an invite: a new person picks a password; someone with a user here gives theirs.
import { api } from '../api.ts';
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
  if (link.status === 'loading') return <PublicLayout title="Join an account"><Spinner /></PublicLayout>;
  if (link.status === 'bad') {
    return (
      <PublicLayout title="This invite cannot be used">
        <p class="form-error">{link.message}</p>
        <p>
          Ask the account’s owner for a new invite, or {session ? <Link href="/codes">go to your codes</Link> : <Link href="/sign-in">sign in</Link>}.
        </p>
      </PublicLayout>
    );
  }
  const onSubmit = (e: Event) => {
    e.preventDefault();
    void form.submit(
      (v) => ({ email: checks.email(v.email), password: checks.required('a password')(v.password) }),
      async (v) => {
        setSession(await api.acceptInvite(token, v.email, v.password));
        navigate('/codes', { replace: true });
      },
    );
  };
  const { accountName, role } = link.data;
  return (
    <PublicLayout
      title={`Join ${accountName}`}
      intro={
        <p>
          You are invited as {ROLE_TEXT[role]}. New here? Choose a password of at least 10 characters. Already have a user on this instance? Use its email and password.
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
