// Open sign-up (SIGNUP=open): anyone creates their own account.
import { api } from '../api.ts';
import { Field } from '../components/field.tsx';
import { checks, useForm } from '../components/form.ts';
import { PublicLayout } from '../components/layout.tsx';
import { Button, FormError } from '../components/ui.tsx';
import { Link, navigate } from '../router.ts';
import { setSession, useAppState } from '../store.ts';

export function SignUpPage() {
  const { instance } = useAppState();
  const form = useForm({ accountName: '', email: '', password: '' });
  if (instance && instance.signup !== 'open') {
    return (
      <PublicLayout title="Sign-up is by invitation">
        <p>Ask an owner of an account on this instance for an invite link.</p>
        <p>
          <Link href="/sign-in">Sign in</Link>
        </p>
      </PublicLayout>
    );
  }
  const onSubmit = (e: Event) => {
    e.preventDefault();
    void form.submit(
      (v) => ({ accountName: checks.required('a name for the account')(v.accountName), email: checks.email(v.email), password: checks.newPassword(v.password) }),
      async (v) => {
        setSession(await api.signUp(v));
        navigate('/account/keys', { replace: true });
      },
    );
  };
  return (
    <PublicLayout title="Create an account">
      <form onSubmit={onSubmit} noValidate>
        <FormError message={form.errors.form} />
        <Field label="Account name" hint="Your company, team or project." autocomplete="organization" required autofocus maxLength={80} {...form.bind('accountName')} />
        <Field label="Email" type="email" autocomplete="username" required {...form.bind('email')} />
        <Field label="Password" type="password" hint="At least 10 characters." autocomplete="new-password" required {...form.bind('password')} />
        <Button type="submit" busy={form.busy}>
          Create account
        </Button>
      </form>
      <p class="small">
        Already have a user? <Link href="/sign-in">Sign in</Link>
      </p>
    </PublicLayout>
  );
}
