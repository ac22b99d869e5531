// First run: the owner creates the first account and user with the printed setup link.
import { api } from '../api.ts';
import { Field } from '../components/field.tsx';
import { checks, useForm } from '../components/form.ts';
import { PublicLayout } from '../components/layout.tsx';
import { Button, FormError, Spinner } from '../components/ui.tsx';
import { Link, navigate } from '../router.ts';
import { setSession } from '../store.ts';
import { useLinkCheck } from './use-link.ts';

export function SetupPage({ token }: { token: string }) {
  const link = useLinkCheck(() => api.checkSetup(token), [token]);
  const form = useForm({ accountName: '', email: '', password: '' });
  if (link.status === 'loading') return <PublicLayout title="Set up qrtrack"><Spinner /></PublicLayout>;
  if (link.status === 'bad') {
    return (
      <PublicLayout title="This setup link cannot be used">
        <p class="form-error">{link.message}</p>
        <p>
          If the instance is already set up, <Link href="/sign-in">sign in</Link>. Otherwise run <code>qrtrack setup-link</code> for a new link.
        </p>
      </PublicLayout>
    );
  }
  const onSubmit = (e: Event) => {
    e.preventDefault();
    void form.submit(
      (v) => ({ accountName: checks.required('a name for the account')(v.accountName), email: checks.email(v.email), password: checks.newPassword(v.password) }),
      async (v) => {
        setSession(await api.setup({ token, ...v }));
        navigate('/account/keys', { replace: true });
      },
    );
  };
  return (
    <PublicLayout title="Set up qrtrack" intro={<p>Create the owner of this instance. This link works once; after it, people join by invitation.</p>}>
      <form onSubmit={onSubmit} noValidate>
        <FormError message={form.errors.form} />
        <Field label="Account name" hint="Your company, team or project." autocomplete="organization" required autofocus maxLength={80} {...form.bind('accountName')} />
        <Field label="Email" type="email" autocomplete="username" required {...form.bind('email')} />
        <Field label="Password" type="password" hint="At least 10 characters." autocomplete="new-password" required {...form.bind('password')} />
        <Button type="submit" busy={form.busy}>
          Create account
        </Button>
      </form>
    </PublicLayout>
  );
}
