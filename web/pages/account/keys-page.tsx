// API keys: create one with a name, scopes and an optional expiry (shown once, with a curl
// example), list them with who made them, when they were last used and when they end; rotate
// (the successor is shown once, the old key works on for a day) or revoke with a confirmation.
import { useEffect, useState } from 'preact/hooks';
import { type ApiKeyListItem, ApiError, type CreatedKey, type Scope, api } from '../../api.ts';
import { byId, useFocusLater } from '../../components/announce.ts';
import { Field } from '../../components/field.tsx';
import { checks, useForm } from '../../components/form.ts';
import { AppLayout } from '../../components/layout.tsx';
import { Button, ConfirmButton, CopyField, FormError, Notice, Spinner, When } from '../../components/ui.tsx';
import { useAppState } from '../../store.ts';
import { AccountTabs } from './account-tabs.tsx';
import './account.css';

const DAY_MS = 86_400_000;
/** Lifetimes offered for a new key, in days; 0: it lasts until revoked. */
const LIFETIMES: { days: number; text: string }[] = [
  { days: 0, text: 'Never (until revoked)' },
  { days: 30, text: 'In 30 days' },
  { days: 90, text: 'In 90 days' },
  { days: 365, text: 'In a year' },
];

const SCOPE_TEXT: Record<Scope, string> = {
  'qr:read': 'qr:read — list codes, read stats, download images',
  'qr:write': 'qr:write — create, change and delete codes',
  'webhooks:read': 'webhooks:read — list webhook endpoints and their delivery logs',
  'webhooks:write': 'webhooks:write — add, change and delete webhook endpoints',
};

export default function KeysPage() {
  const { session } = useAppState();
  const role = session?.account.role;
  // The tab is hidden for other roles, but the address still opens the page: offer no form
  // the server would refuse.
  if (role !== 'owner') {
    return (
      <AppLayout title="API keys" section="Account">
        <AccountTabs />
        <p class="form-error">Only an owner of the account can see and create API keys{role ? ` (your role is ${role})` : ''}.</p>
      </AppLayout>
    );
  }
  return <OwnerKeys />;
}

function OwnerKeys() {
  const [keys, setKeys] = useState<ApiKeyListItem[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  /** The secret shown once: a new key's, or a rotated key's successor (then `previous` is the old key). */
  const [created, setCreated] = useState<(CreatedKey & { previous?: ApiKeyListItem }) | null>(null);
  const [lifetime, setLifetime] = useState(0);
  const [scopes, setScopes] = useState<Record<Scope, boolean>>({
    'qr:read': true,
    'qr:write': false,
    'webhooks:read': false,
    'webhooks:write': false,
  });
  const form = useForm({ name: '', scopes: '' });
  /** What the last revoke did, where its button was. */
  const [done, setDone] = useState<string | null>(null);
  const focusLater = useFocusLater();

  const reload = () =>
    api.keys().then(setKeys, (err: unknown) => setError(err instanceof ApiError ? err.message : 'The keys could not be loaded.'));
  useEffect(() => void reload(), []);

  const onSubmit = (e: Event) => {
    e.preventDefault();
    const chosen = (Object.keys(scopes) as Scope[]).filter((s) => scopes[s]);
    void form.submit(
      (v) => ({ name: checks.required('a name for the key')(v.name), scopes: chosen.length === 0 ? 'Tick at least one scope' : undefined }),
      async (v) => {
        const expiresAt = lifetime === 0 ? null : new Date(Date.now() + lifetime * DAY_MS).toISOString();
        setCreated(await api.createKey(v.name.trim(), chosen, expiresAt));
        form.setValues({ name: '', scopes: '' });
        setLifetime(0);
        setDone(null);
        // The secret replaces the form and is shown once: the focus goes to it (its
        // description says so), ready to copy.
        focusLater(byId('new-key-secret'));
        await reload();
      },
    );
  };
  const origin = location.origin;

  return (
    <AppLayout title="API keys" section="Account">
      <AccountTabs />
      <section aria-labelledby="new-key" class="card">
        <h2 id="new-key">Create an API key</h2>
        {created ? (
          <div class="created">
            <Notice kind="success" id="new-key-notice">
              {created.previous ? (
                <>
                  Key “<span class="key-name">{created.key.name}</span>” rotated. Copy the new key now: it is shown only once. The old key
                  keeps working until <When iso={created.previous.expiresAt} />.
                </>
              ) : (
                <>
                  Key “<span class="key-name">{created.key.name}</span>” created. Copy it now: it is shown only once.
                </>
              )}
            </Notice>
            <CopyField id="new-key-secret" label="Your new API key" value={created.secret} describedBy="new-key-notice" />
            <CopyField
              id="new-key-curl"
              label="Try it"
              multiline
              value={`curl -H "Authorization: Bearer ${created.secret}" ${origin}/v1/qr`}
            />
            <Button
              variant="secondary"
              onClick={() => {
                setCreated(null);
                focusLater(byId('create-key'));
              }}
            >
              Done
            </Button>
          </div>
        ) : (
          <form onSubmit={onSubmit} noValidate>
            <FormError message={form.errors.form} />
            <Field label="Name" hint="Where the key is used, e.g. “Website” or “CI”." required maxLength={80} {...form.bind('name')} />
            <fieldset
              class={`field${form.errors.scopes ? ' field--invalid' : ''}`}
              aria-describedby={form.errors.scopes ? 'f-scopes-error' : undefined}
            >
              <legend>Scopes</legend>
              {(Object.keys(SCOPE_TEXT) as Scope[]).map((s) => (
                <label key={s} class="check">
                  <input
                    type="checkbox"
                    name="scopes"
                    value={s}
                    checked={scopes[s]}
                    aria-invalid={form.errors.scopes ? 'true' : undefined}
                    onChange={(e) => {
                      setScopes({ ...scopes, [s]: e.currentTarget.checked });
                      form.setErrors({ ...form.errors, scopes: undefined });
                    }}
                  />
                  {SCOPE_TEXT[s]}
                </label>
              ))}
              {form.errors.scopes ? (
                <p class="error" id="f-scopes-error">
                  {form.errors.scopes}
                </p>
              ) : null}
            </fieldset>
            <div class="field">
              <label for="key-expires">Expires</label>
              <select id="key-expires" value={String(lifetime)} onChange={(e) => setLifetime(Number(e.currentTarget.value))}>
                {LIFETIMES.map((l) => (
                  <option key={l.days} value={String(l.days)}>
                    {l.text}
                  </option>
                ))}
              </select>
            </div>
            <Button type="submit" id="create-key" busy={form.busy}>
              Create key
            </Button>
          </form>
        )}
      </section>

      <section aria-labelledby="key-list">
        <h2 id="key-list">Keys</h2>
        {error ? (
          <p class="form-error" role="alert" id="keys-error" tabIndex={-1}>
            {error}
          </p>
        ) : null}
        {done ? (
          <p class="done-line" id="keys-done" tabIndex={-1}>
            {done}
          </p>
        ) : null}
        {keys === null ? (
          error ? null : (
            <Spinner />
          )
        ) : keys.length === 0 ? (
          <p class="muted">No keys yet.</p>
        ) : (
          <div class="table-wrap">
            <table class="table keys-table">
              <caption class="visually-hidden">API keys of this account</caption>
              <thead>
                <tr>
                  <th scope="col">Name</th>
                  <th scope="col">Key</th>
                  <th scope="col">Scopes</th>
                  <th scope="col">Created</th>
                  <th scope="col">Last used</th>
                  <th scope="col">Expires</th>
                  <th scope="col">
                    <span class="visually-hidden">Actions</span>
                  </th>
                </tr>
              </thead>
              <tbody>
                {keys.map((k) => (
                  <tr key={k.id} class={k.status === 'revoked' || k.status === 'expired' ? 'revoked' : undefined}>
                    <td data-label="Name" class="key-name">
                      {k.name}
                    </td>
                    <td data-label="Key" class="key-prefix">
                      <code>{k.prefix}…</code>
                    </td>
                    <td data-label="Scopes">{k.scopes.join(', ')}</td>
                    <td data-label="Created">
                      <When iso={k.createdAt} />
                      <span class="muted small block">{k.createdBy ? `by ${k.createdBy.email}` : 'with the CLI'}</span>
                    </td>
                    <td data-label="Last used">
                      <When iso={k.lastUsedAt} />
                    </td>
                    <td data-label="Expires">
                      <Expiry k={k} />
                    </td>
                    <td data-label="Actions" class="actions">
                      {k.status === 'revoked' || k.status === 'expired' ? (
                        <span class="badge">{k.status === 'revoked' ? 'Revoked' : 'Expired'}</span>
                      ) : (
                        <span class="key-actions">
                          {k.status === 'active' ? (
                            <ConfirmButton
                              label="Rotate"
                              ariaLabel={`Rotate ${k.name}`}
                              confirmLabel="Rotate key"
                              question={`Rotate “${k.name}”? A new key replaces it; this one keeps working for one more day.`}
                              onConfirm={async () => {
                                setDone(null);
                                setError(null);
                                try {
                                  const rotated = await api.rotateKey(k.id);
                                  setCreated(rotated);
                                  // The successor's secret is shown once at the top: the focus goes to it.
                                  focusLater(byId('new-key-secret'));
                                  await reload();
                                } catch (err) {
                                  setError(
                                    err instanceof ApiError
                                      ? `Key “${k.name}” was not rotated. ${err.message}`
                                      : `Key “${k.name}” was not rotated. Try again.`,
                                  );
                                  focusLater(byId('keys-error'));
                                }
                              }}
                            />
                          ) : null}
                          <ConfirmButton
                            label="Revoke"
                            ariaLabel={`Revoke ${k.name}`}
                            confirmLabel="Revoke key"
                            question={`Revoke “${k.name}”? Programs using it stop working.`}
                            onConfirm={async () => {
                              // The row's button becomes a "Revoked" badge: the focus goes to the line saying so.
                              setDone(null);
                              setError(null);
                              try {
                                await api.revokeKey(k.id);
                                await reload();
                                setDone(`Key “${k.name}” revoked. Requests made with it are refused from now on.`);
                                focusLater(byId('keys-done'));
                              } catch (err) {
                                setError(
                                  err instanceof ApiError
                                    ? `Key “${k.name}” was not revoked. ${err.message}`
                                    : `Key “${k.name}” was not revoked. Try again.`,
                                );
                                focusLater(byId('keys-error'));
                              }
                            }}
                          />
                        </span>
                      )}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
      </section>
    </AppLayout>
  );
}

/** When a key stops working: never, at its expiry, or (rotated) at the end of its grace period. */
function Expiry({ k }: { k: ApiKeyListItem }) {
  if (k.status === 'revoked') return <span class="muted">—</span>;
  if (k.status === 'rotated') {
    return (
      <>
        <When iso={k.expiresAt} />
        <span class="muted small block">rotated: replaced by a new key</span>
      </>
    );
  }
  return <When iso={k.expiresAt} empty="never" />;
}
