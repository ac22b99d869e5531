// First run: the owner creates the first account and user with the printed setup link.
import { type InstanceView, api } from '../api.ts';
import { PublicLayout } from '../components/layout.tsx';
import { NewAccountForm } from '../components/new-account-form.tsx';
import { Spinner } from '../components/ui.tsx';
import { Link } from '../router.ts';
import { useAppState } from '../store.ts';
import { useLinkCheck } from './use-link.ts';

export function SetupPage({ token }: { token: string }) {
  const { instance } = useAppState();
  const link = useLinkCheck(() => api.checkSetup(token), [token]);
  if (link.status === 'loading')
    return (
      <PublicLayout title="Set up qrtrack">
        <Spinner />
      </PublicLayout>
    );
  if (link.status === 'bad') {
    return (
      <PublicLayout title="This setup link cannot be used">
        <p class="form-error">{link.message}</p>
        <p>
          If the instance is already set up, <Link href="/sign-in">sign in</Link>. Otherwise run <code>qrtrack setup-link</code> for a new
          link.
        </p>
      </PublicLayout>
    );
  }
  return (
    <PublicLayout title="Set up qrtrack" intro={<p>Create the owner of this instance. {afterSetup(instance?.signup)}</p>}>
      <NewAccountForm create={(v) => api.setup({ token, ...v })} />
    </PublicLayout>
  );
}

/** Who may join once the owner exists: it depends on the server's SIGNUP setting. */
function afterSetup(signup: InstanceView['signup'] | undefined): string {
  if (signup === 'open')
    return 'This link works once; after it, others join by invitation or create an account of their own on the sign-up page.';
  if (signup === 'invite') return 'This link works once; after it, people join by invitation.';
  return 'This link works once.'; // the instance could not be read
}
