// Open sign-up (SIGNUP=open): anyone creates their own account.
import { api } from '../api.ts';
import { PublicLayout } from '../components/layout.tsx';
import { NewAccountForm } from '../components/new-account-form.tsx';
import { Link } from '../router.ts';
import { useAppState } from '../store.ts';

export function SignUpPage() {
  const { instance } = useAppState();
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
  return (
    <PublicLayout title="Create an account">
      <NewAccountForm create={(v) => api.signUp(v)} />
      <p class="small">
        Already have a user? <Link href="/sign-in">Sign in</Link>
      </p>
    </PublicLayout>
  );
}
