// Account → Domains (owners): the instance's public address, and the account's own domains.
// A domain is added, shows the TXT record to create, is verified (now, or by the server's
// timer), and once active can be the default for new codes, with a fallback for unknown
// codes and a redirect for its root.
import { useEffect, useState } from 'preact/hooks';
import { ApiError, type DomainView, api } from '../../api.ts';
import { announce } from '../../components/announce.ts';
import { Field } from '../../components/field.tsx';
import { checks, useForm } from '../../components/form.ts';
import { AppLayout } from '../../components/layout.tsx';
import { Button, ConfirmButton, CopyField, FormError, Notice, Spinner } from '../../components/ui.tsx';
import { setInstance, useAppState } from '../../store.ts';
import { AccountTabs } from './account-tabs.tsx';
import './account.css';

const STATUS_TEXT: Record<DomainView['status'], string> = {
  pending: 'Waiting for its DNS record',
  active: 'Verified',
  failed: 'Not verified',
};

export default function DomainsPage() {
  const { session } = useAppState();
  const role = session?.account.role;
  if (role !== 'owner') {
    return (
      <AppLayout title="Domains" section="Account">
        <AccountTabs />
        <p class="form-error">Only an owner of the account can manage its domains{role ? ` (your role is ${role})` : ''}.</p>
      </AppLayout>
    );
  }
  return (
    <AppLayout title="Domains" section="Account">
      <AccountTabs />
      <PublicAddressCard />
      <OwnerDomains />
    </AppLayout>
  );
}

function PublicAddressCard() {
  const { instance } = useAppState();
  const address = instance?.publicAddress;
  const form = useForm({ publicBaseUrl: '' });
  const [saved, setSaved] = useState<string | null>(null);
  if (!address) return null;
  const onSubmit = (e: Event) => {
    e.preventDefault();
    void form.submit(
      (v) => ({ publicBaseUrl: checks.required('the public address')(v.publicBaseUrl) }),
      async (v) => {
        const changed = await api.changePublicAddress(v.publicBaseUrl.trim());
        setInstance({ ...(instance as NonNullable<typeof instance>), publicAddress: changed });
        form.setValues({ publicBaseUrl: '' });
        setSaved(`New codes now point to ${changed.url}.`);
        announce(`The public address is now ${changed.url}.`);
      },
    );
  };
  return (
    <section aria-labelledby="public-address" class="card">
      <h2 id="public-address">Public address of this instance</h2>
      <p>
        Codes point to <strong class="key-name">{address.url}</strong>
        {address.source === 'env' ? (
          <>
            , set by <code>PUBLIC_BASE_URL</code>.
          </>
        ) : (
          '.'
        )}
      </p>
      {address.warning ? <Notice kind="warning">{address.warning}</Notice> : null}
      {saved ? <Notice kind="success">{saved}</Notice> : null}
      {address.source === 'env' ? (
        <p class="muted">To change it, change PUBLIC_BASE_URL and restart the server.</p>
      ) : (
        <form onSubmit={onSubmit} noValidate>
          <FormError message={form.errors.form} />
          <Field
            label="New public address"
            required
            hint="Codes already printed keep the address they were made with; it goes on answering for them. Only new images use the new one."
            maxLength={2048}
            {...form.bind('publicBaseUrl')}
          />
          <Button type="submit" variant="secondary" busy={form.busy}>
            Change the address
          </Button>
        </form>
      )}
      {address.previous.length > 0 ? (
        <p class="muted small">Still answering for printed codes: {address.previous.map((u, i) => (i === 0 ? u : `, ${u}`))}</p>
      ) : null}
    </section>
  );
}

function OwnerDomains() {
  const [domains, setDomains] = useState<DomainView[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const form = useForm({ hostname: '' });

  const reload = () =>
    api.domains().then(setDomains, (err: unknown) => setError(err instanceof ApiError ? err.message : 'The domains could not be loaded.'));
  useEffect(() => void reload(), []);
  const replace = (d: DomainView) =>
    setDomains((old) => (old ?? []).map((o) => (o.id === d.id ? d : d.isDefault ? { ...o, isDefault: false } : o)));

  const onSubmit = (e: Event) => {
    e.preventDefault();
    void form.submit(
      (v) => ({ hostname: checks.required('a hostname such as qr.example.com')(v.hostname) }),
      async (v) => {
        const added = await api.addDomain(v.hostname.trim());
        form.setValues({ hostname: '' });
        setDomains((old) => [...(old ?? []), added]);
        announce(`${added.hostname} added. Create its DNS record, then verify it.`);
      },
    );
  };

  return (
    <>
      <section aria-labelledby="add-domain" class="card">
        <h2 id="add-domain">Add a domain</h2>
        <p class="muted">
          Codes on your own domain (qr.your-company.com/r/…) are trusted more on a poster. Point the domain at this server, then prove it is
          yours with a DNS TXT record.
        </p>
        <form onSubmit={onSubmit} noValidate>
          <FormError message={form.errors.form} />
          <Field
            label="Hostname"
            hint="For example qr.example.com, without https://."
            required
            maxLength={253}
            {...form.bind('hostname')}
          />
          <Button type="submit" busy={form.busy}>
            Add domain
          </Button>
        </form>
      </section>
      <section aria-labelledby="domain-list">
        <h2 id="domain-list">Your domains</h2>
        {error ? (
          <p class="form-error" role="alert">
            {error}
          </p>
        ) : null}
        {domains === null ? (
          error ? null : (
            <Spinner />
          )
        ) : domains.length === 0 ? (
          <p class="muted">No domains yet: codes use the instance’s address.</p>
        ) : (
          domains.map((d) => (
            <DomainCard
              key={d.id}
              domain={d}
              onChange={replace}
              onDeleted={() => setDomains((old) => (old ?? []).filter((o) => o.id !== d.id))}
            />
          ))
        )}
      </section>
    </>
  );
}

function DomainCard({ domain, onChange, onDeleted }: { domain: DomainView; onChange: (d: DomainView) => void; onDeleted: () => void }) {
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);
  const [saved, setSaved] = useState<string | null>(null);
  const settings = useForm({ fallbackUrl: domain.fallbackUrl ?? '', rootRedirect: domain.rootRedirect ?? '' });
  const slug = domain.hostname.replace(/[^a-z0-9]+/g, '-');

  const verify = async () => {
    setBusy(true);
    setProblem(null);
    try {
      const checked = await api.verifyDomain(domain.id);
      onChange(checked);
      announce(checked.status === 'active' ? `${checked.hostname} is verified.` : `${checked.hostname} is not verified yet.`);
    } catch (err) {
      setProblem(err instanceof ApiError ? err.message : 'The check failed. Try again.');
    } finally {
      setBusy(false);
    }
  };
  const makeDefault = async () => {
    try {
      onChange(await api.updateDomain(domain.id, { isDefault: !domain.isDefault }));
    } catch (err) {
      setProblem(err instanceof ApiError ? err.message : 'The change failed. Try again.');
    }
  };
  const save = (e: Event) => {
    e.preventDefault();
    setSaved(null);
    void settings.submit(
      () => ({}),
      async (v) => {
        const fallbackUrl = v.fallbackUrl.trim() === '' ? null : v.fallbackUrl.trim();
        const rootRedirect = v.rootRedirect.trim() === '' ? null : v.rootRedirect.trim();
        onChange(await api.updateDomain(domain.id, { fallbackUrl, rootRedirect }));
        setSaved('Saved.');
      },
    );
  };

  return (
    <article class="card domain" aria-labelledby={`d-${slug}`}>
      <div class="domain__head">
        <h3 id={`d-${slug}`} class="key-name">
          {domain.hostname}
        </h3>
        <span class={`badge badge--${domain.status}`}>{STATUS_TEXT[domain.status]}</span>
        {domain.isDefault ? <span class="badge">Default</span> : null}
      </div>
      {problem ? (
        <p class="form-error" role="alert">
          {problem}
        </p>
      ) : null}
      {domain.status !== 'active' ? (
        <div class="domain__record">
          <p>Create this TXT record at your DNS provider, then verify. The server also checks every few minutes.</p>
          <CopyField id={`d-${slug}-name`} label="Name" value={domain.verification.name} />
          <CopyField id={`d-${slug}-value`} label="Value" value={domain.verification.value} />
          {domain.lastError ? <p class="muted small">Last check: {domain.lastError}.</p> : null}
          <Button onClick={verify} busy={busy}>
            Verify now
          </Button>
        </div>
      ) : (
        <>
          <p class="muted small">
            Point the domain at this server (a CNAME or A record) so scans reach it. Its codes read {domain.hostname}/r/…
          </p>
          <p>
            <Button variant="secondary" onClick={makeDefault}>
              {domain.isDefault ? 'Stop using it for new codes' : 'Use for new codes'}
            </Button>
          </p>
          <form onSubmit={save} noValidate>
            <FormError message={settings.errors.form} />
            <Field
              label="Fallback URL"
              hint="Where unknown and deleted codes on this domain send people."
              maxLength={2048}
              {...settings.bind('fallbackUrl')}
            />
            <Field
              label="Root redirect"
              hint={`Where https://${domain.hostname}/ sends people, e.g. your website.`}
              maxLength={2048}
              {...settings.bind('rootRedirect')}
            />
            <Button type="submit" variant="secondary" busy={settings.busy}>
              Save settings
            </Button>
            {saved ? (
              <span class="domain__saved" role="status">
                {saved}
              </span>
            ) : null}
          </form>
        </>
      )}
      <div class="domain__delete">
        <ConfirmButton
          label="Delete"
          ariaLabel={`Delete ${domain.hostname}`}
          confirmLabel="Delete domain"
          question={`Delete ${domain.hostname}? Its address stops answering.`}
          onConfirm={async () => {
            try {
              await api.deleteDomain(domain.id);
              onDeleted();
              announce(`${domain.hostname} deleted.`);
            } catch (err) {
              setProblem(err instanceof ApiError ? err.message : 'The domain could not be deleted.');
            }
          }}
        />
      </div>
    </article>
  );
}
