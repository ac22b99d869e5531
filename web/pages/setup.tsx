// First run: the owner creates the first account and user with the printed setup link, and
// says where people will scan the codes (the public address; PUBLIC_BASE_URL decides it when set).
import { useState } from 'preact/hooks';
import { type InstanceView, api } from '../api.ts';
import { addressWarning, parsePublicAddress } from '../../src/domain/domains/public-address.ts';
import { describedBy } from '../components/field.tsx';
import { PublicLayout } from '../components/layout.tsx';
import { NewAccountForm } from '../components/new-account-form.tsx';
import { Notice, Spinner } from '../components/ui.tsx';
import { Link, navigate } from '../router.ts';
import { useAppState } from '../store.ts';
import { useLinkCheck } from './use-link.ts';

export function SetupPage({ token }: { token: string }) {
  const { instance } = useAppState();
  const link = useLinkCheck(() => api.checkSetup(token), [token]);
  const [address, setAddress] = useState(location.origin);
  const [movedTo, setMovedTo] = useState<string | null>(null);
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
  if (movedTo !== null) {
    // The session is this address's; an https address means Secure cookies, which a plain
    // http page cannot keep: the owner signs in at the new address.
    return (
      <PublicLayout title="qrtrack is set up">
        <p>
          Codes will point to <strong>{movedTo}</strong>. Open <a href={`${movedTo}/app/sign-in`}>{movedTo}/app/</a> and sign in there with
          the email and password you just chose.
        </p>
      </PublicLayout>
    );
  }
  const fromEnv = instance?.publicAddress.source === 'env';
  const parsed = tryParse(address);
  const warning = parsed.ok ? addressWarning(parsed.url) : null;
  return (
    <PublicLayout title="Set up qrtrack" intro={<p>Create the owner of this instance. {afterSetup(instance?.signup)}</p>}>
      <NewAccountForm
        create={(v) => api.setup({ token, ...v, ...(fromEnv || !parsed.ok ? {} : { publicBaseUrl: parsed.url }) })}
        checkExtra={() => (fromEnv || parsed.ok ? undefined : `Public address: ${parsed.error}`)}
        done={() => {
          if (!fromEnv && parsed.ok && parsed.url !== location.origin) setMovedTo(parsed.url);
          else navigate('/codes', { replace: true });
        }}
        extra={
          fromEnv ? (
            <p class="muted">
              Codes will point to <strong>{instance?.publicAddress.url}</strong> (set by <code>PUBLIC_BASE_URL</code>).
            </p>
          ) : (
            <div class={`field${parsed.ok ? '' : ' field--invalid'}`}>
              <label for="f-publicBaseUrl">Public address</label>
              <p class="hint" id="f-publicBaseUrl-hint">
                The address people will scan: every code you print points to it. Usually https://qr.your-company.com.
              </p>
              <input
                id="f-publicBaseUrl"
                name="publicBaseUrl"
                type="url"
                inputMode="url"
                autocomplete="url"
                value={address}
                required
                aria-invalid={parsed.ok ? undefined : 'true'}
                aria-describedby={describedBy('f-publicBaseUrl', true, parsed.ok ? undefined : parsed.error)}
                onInput={(e) => setAddress(e.currentTarget.value)}
              />
              {parsed.ok ? null : (
                <p class="error" id="f-publicBaseUrl-error">
                  {parsed.error}
                </p>
              )}
              {warning ? (
                <Notice kind="warning" id="f-publicBaseUrl-warning">
                  {warning.replace(/ Set the public address .*$/, '')}
                </Notice>
              ) : null}
            </div>
          )
        }
      />
    </PublicLayout>
  );
}

function tryParse(raw: string): { ok: true; url: string } | { ok: false; error: string } {
  try {
    return { ok: true, url: parsePublicAddress(raw) };
  } catch (err) {
    const message = err instanceof Error ? err.message.replace(/^publicBaseUrl: /, '') : 'is not an address';
    return { ok: false, error: message.charAt(0).toUpperCase() + message.slice(1) };
  }
}

/** Who may join once the owner exists: it depends on the server's SIGNUP setting. */
function afterSetup(signup: InstanceView['signup'] | undefined): string {
  if (signup === 'open')
    return 'This link works once; after it, others join by invitation or create an account of their own on the sign-up page.';
  if (signup === 'invite') return 'This link works once; after it, people join by invitation.';
  return 'This link works once.'; // the instance could not be read
}
