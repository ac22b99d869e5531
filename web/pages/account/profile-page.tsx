// The signed-in person: change the password, the account's scan retention, sign out everywhere.
import { useState } from 'preact/hooks';
import { api } from '../../api.ts';
import { Field } from '../../components/field.tsx';
import { checks, useForm } from '../../components/form.ts';
import { AppLayout } from '../../components/layout.tsx';
import { Button, FormError, Notice } from '../../components/ui.tsx';
import { navigate } from '../../router.ts';
import { signedOut, useAppState } from '../../store.ts';
import { announce } from '../../components/announce.ts';
import { AccountTabs } from './account-tabs.tsx';
import { ScanRetentionCard } from './scan-retention-card.tsx';

export default function ProfilePage() {
  const { session } = useAppState();
  const form = useForm({ currentPassword: '', newPassword: '' });
  const [changed, setChanged] = useState(false);
  const onSubmit = (e: Event) => {
    e.preventDefault();
    setChanged(false);
    void form.submit(
      (v) => ({
        currentPassword: checks.required('your current password')(v.currentPassword),
        newPassword: checks.newPassword(v.newPassword),
      }),
      async (v) => {
        await api.changePassword(v.currentPassword, v.newPassword);
        form.setValues({ currentPassword: '', newPassword: '' });
        setChanged(true);
        announce('Password changed. Your other sessions were signed out.');
      },
    );
  };
  const everywhere = async () => {
    await api.signOutEverywhere().catch(() => undefined);
    signedOut();
    navigate('/sign-in');
    announce('You are signed out everywhere, this browser included.');
  };
  return (
    <AppLayout title="Profile" section="Account">
      <AccountTabs />
      <section aria-labelledby="profile" class="card">
        <h2 id="profile">Profile</h2>
        <p>
          Signed in as <strong>{session?.user.email}</strong>, {session?.account.role} of {session?.account.name}.
        </p>
      </section>
      <section aria-labelledby="password" class="card">
        <h2 id="password">Change password</h2>
        {changed ? <Notice kind="success">Password changed. Your other sessions were signed out.</Notice> : null}
        <form onSubmit={onSubmit} noValidate>
          <FormError message={form.errors.form} />
          <input type="email" name="username" autoComplete="username" value={session?.user.email ?? ''} hidden readOnly />
          <Field label="Current password" type="password" autocomplete="current-password" required {...form.bind('currentPassword')} />
          <Field
            label="New password"
            type="password"
            hint="At least 10 characters."
            autocomplete="new-password"
            required
            {...form.bind('newPassword')}
          />
          <Button type="submit" busy={form.busy}>
            Change password
          </Button>
        </form>
      </section>
      <ScanRetentionCard owner={session?.account.role === 'owner'} />
      <section aria-labelledby="sessions" class="card">
        <h2 id="sessions">Sessions</h2>
        <p class="muted">Signs you out on every device and browser, this one included.</p>
        <Button variant="danger" onClick={everywhere}>
          Sign out everywhere
        </Button>
      </section>
    </AppLayout>
  );
}
