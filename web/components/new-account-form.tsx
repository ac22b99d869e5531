// The form that creates an account and its first user: used by first-run setup and by open sign-up.
import type { ComponentChildren } from 'preact';
import type { SessionView } from '../api.ts';
import { navigate } from '../router.ts';
import { setSession } from '../store.ts';
import { Field } from './field.tsx';
import { checks, useForm } from './form.ts';
import { Button, FormError } from './ui.tsx';

export interface NewAccount {
  accountName: string;
  email: string;
  password: string;
}

/**
 * On success the new owner is signed in and lands on the codes list, which offers to create the
 * first code, unless `done` says otherwise. `extra` goes after the person's fields (setup asks for the public address there);
 * `checkExtra` gives its error, shown at the top of the form.
 */
export function NewAccountForm({
  create,
  extra,
  checkExtra,
  done,
}: {
  create: (v: NewAccount) => Promise<SessionView>;
  extra?: ComponentChildren;
  checkExtra?: () => string | undefined;
  done?: (session: SessionView) => void;
}) {
  const form = useForm({ accountName: '', email: '', password: '' });
  const onSubmit = (e: Event) => {
    e.preventDefault();
    void form.submit(
      (v) => ({
        accountName: checks.required('a name for the account')(v.accountName),
        email: checks.email(v.email),
        password: checks.newPassword(v.password),
        form: checkExtra?.(),
      }),
      async (v) => {
        const session = await create(v);
        setSession(session);
        if (done) done(session);
        else navigate('/codes', { replace: true });
      },
    );
  };
  return (
    <form onSubmit={onSubmit} noValidate>
      <FormError message={form.errors.form} />
      <Field
        label="Account name"
        hint="Your company, team or project."
        autocomplete="organization"
        required
        autofocus
        maxLength={80}
        {...form.bind('accountName')}
      />
      <Field label="Email" type="email" autocomplete="username" required {...form.bind('email')} />
      <Field
        label="Password"
        type="password"
        hint="At least 10 characters."
        autocomplete="new-password"
        required
        {...form.bind('password')}
      />
      {extra}
      <Button type="submit" busy={form.busy}>
        Create account
      </Button>
    </form>
  );
}
