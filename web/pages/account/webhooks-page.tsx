// Account → Webhooks (owners): endpoints that receive the account's events, signed per the
// Standard Webhooks specification. The secret is shown once (at creation and after a rotation);
// an endpoint the server disabled (410, repeated failures) says why and can be enabled again; each
// has its delivery log with Resend, and a test event.
import { useEffect, useState } from 'preact/hooks';
import { ApiError, type CreateWebhookRequest, type WebhookDeliveryView, type WebhookView, api } from '../../api.ts';
import { announce } from '../../components/announce.ts';
import { Field } from '../../components/field.tsx';
import { useForm } from '../../components/form.ts';
import { AppLayout } from '../../components/layout.tsx';
import { Button, ConfirmButton, CopyField, FormError, Notice, Spinner, When } from '../../components/ui.tsx';
import { WEBHOOK_EVENTS, type WebhookEvent } from '../../../src/domain/webhooks/webhook-events.ts';
import { useAppState } from '../../store.ts';
import { AccountTabs } from './account-tabs.tsx';
import './account.css';

const EVENT_TEXT: Record<WebhookEvent, string> = {
  'scan.created': 'A code was scanned',
  'item.created': 'A code was created',
  'item.updated': 'A code was changed',
  'item.paused': 'A code was paused',
  'item.resumed': 'A code was resumed',
  'item.deleted': 'A code was deleted',
  'item.expired': 'A code reached its end date',
  'item.capped': 'A code reached its scan limit',
  'apiKey.expiring': 'An API key stops working within 7 days',
};

const DISABLED_TEXT: Record<NonNullable<WebhookView['disabledReason']>, string> = {
  manual: 'Disabled by a member of the account.',
  gone: 'Disabled: the receiver answered 410 Gone.',
  failures: 'Disabled: 20 deliveries in a row failed.',
  failing: 'Disabled: deliveries failed for 5 days.',
};

export default function WebhooksPage() {
  const { session } = useAppState();
  const role = session?.account.role;
  if (role !== 'owner') {
    return (
      <AppLayout title="Webhooks" section="Account">
        <AccountTabs />
        <p class="form-error">Only an owner of the account can manage its webhooks{role ? ` (your role is ${role})` : ''}.</p>
      </AppLayout>
    );
  }
  return (
    <AppLayout title="Webhooks" section="Account">
      <AccountTabs />
      <OwnerWebhooks />
    </AppLayout>
  );
}

/** The secret shown once, after a create or a rotation. */
interface Shown {
  url: string;
  secret: string;
  rotated: boolean;
}

function OwnerWebhooks() {
  const [hooks, setHooks] = useState<WebhookView[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [shown, setShown] = useState<Shown | null>(null);

  const reload = () =>
    api.webhooks().then(setHooks, (err: unknown) => setError(err instanceof ApiError ? err.message : 'The webhooks could not be loaded.'));
  useEffect(() => void reload(), []);
  const replace = (w: WebhookView) => setHooks((old) => (old ?? []).map((o) => (o.id === w.id ? w : o)));

  return (
    <>
      <section aria-labelledby="add-webhook" class="card">
        <h2 id="add-webhook">Add an endpoint</h2>
        <p class="muted">
          Your server receives a signed POST for each event it subscribes to, within seconds. Failed deliveries are retried for about a day
          and a half. Verify each request with the endpoint's secret (Standard Webhooks; the project's docs/webhooks.md has a receiver).
          Operations: <a href="/docs/#/webhooks">the API reference</a>.
        </p>
        {shown ? (
          <SecretOnce shown={shown} onDone={() => setShown(null)} />
        ) : (
          <EndpointForm
            submitLabel="Add endpoint"
            onSave={async (body) => {
              const created = await api.createWebhook(body);
              setHooks((old) => [...(old ?? []), created.webhook]);
              setShown({ url: created.webhook.url, secret: created.secret, rotated: false });
              announce('Endpoint added. Copy its signing secret now: it is shown only once.');
            }}
          />
        )}
      </section>
      <section aria-labelledby="webhook-list">
        <h2 id="webhook-list">Endpoints</h2>
        {error ? (
          <p class="form-error" role="alert">
            {error}
          </p>
        ) : null}
        {hooks === null ? (
          error ? null : (
            <Spinner />
          )
        ) : hooks.length === 0 ? (
          <p class="muted">No endpoints yet.</p>
        ) : (
          hooks.map((w) => (
            <EndpointCard
              key={w.id}
              hook={w}
              onChange={replace}
              onSecret={(s) => setShown(s)}
              onDeleted={() => setHooks((old) => (old ?? []).filter((o) => o.id !== w.id))}
            />
          ))
        )}
      </section>
    </>
  );
}

function SecretOnce({ shown, onDone }: { shown: Shown; onDone: () => void }) {
  return (
    <div class="created">
      <Notice kind="success" id="webhook-secret-notice">
        {shown.rotated ? 'Secret rotated for ' : 'Endpoint added: '}
        <span class="key-name">{shown.url}</span>. Copy its signing secret now: it is shown only once.
        {shown.rotated ? ' The old secret also signs for 24 hours, so your receiver can switch.' : ''}
      </Notice>
      <CopyField id="webhook-secret" label="Signing secret" value={shown.secret} describedBy="webhook-secret-notice" />
      <Button variant="secondary" onClick={onDone}>
        Done
      </Button>
    </div>
  );
}

function EndpointForm({
  initial,
  submitLabel,
  onSave,
  onCancel,
}: {
  initial?: WebhookView;
  submitLabel: string;
  onSave: (body: CreateWebhookRequest) => Promise<void>;
  onCancel?: () => void;
}) {
  const form = useForm({
    url: initial?.url ?? '',
    description: initial?.description ?? '',
    tags: initial?.filter.tags.join(', ') ?? '',
    events: '',
  });
  const [events, setEvents] = useState<Set<WebhookEvent>>(new Set(initial?.events ?? ['scan.created']));
  const [includeBots, setIncludeBots] = useState(initial?.includeBots ?? false);
  const idp = initial ? `w-${initial.id.slice(0, 8)}` : 'w-new';

  const onSubmit = (e: Event) => {
    e.preventDefault();
    void form.submit(
      (v) => ({
        url: v.url.trim() === '' ? 'Enter the https URL of your receiver' : undefined,
        events: events.size === 0 ? 'Tick at least one event' : undefined,
      }),
      async (v) => {
        const tags = v.tags
          .split(',')
          .map((t) => t.trim())
          .filter(Boolean);
        await onSave({
          url: v.url.trim(),
          description: v.description.trim(),
          events: WEBHOOK_EVENTS.filter((ev) => events.has(ev)),
          filter: { tags, itemIds: initial?.filter.itemIds ?? [] },
          includeBots,
        });
        if (!initial) {
          form.setValues({ url: '', description: '', tags: '', events: '' });
          setEvents(new Set(['scan.created']));
          setIncludeBots(false);
        }
      },
    );
  };

  return (
    <form onSubmit={onSubmit} noValidate>
      <FormError message={form.errors.form} />
      <Field
        label="URL"
        type="url"
        hint="https only, e.g. https://crm.example.com/hooks/qrtrack"
        required
        maxLength={2048}
        {...form.bind('url')}
      />
      <Field label="Description" hint="What receives these events, e.g. CRM sync." maxLength={200} {...form.bind('description')} />
      <fieldset
        class={`field webhook-events${form.errors.events ? ' field--invalid' : ''}`}
        aria-describedby={form.errors.events ? `${idp}-events-error` : undefined}
      >
        <legend>Events</legend>
        {WEBHOOK_EVENTS.map((ev) => (
          <label key={ev} class="check">
            <input
              type="checkbox"
              name="events"
              value={ev}
              checked={events.has(ev)}
              aria-invalid={form.errors.events ? 'true' : undefined}
              onChange={(e) => {
                const next = new Set(events);
                if (e.currentTarget.checked) next.add(ev);
                else next.delete(ev);
                setEvents(next);
                form.setErrors({ ...form.errors, events: undefined });
              }}
            />
            <span>
              <code>{ev}</code> <span class="muted">{EVENT_TEXT[ev]}</span>
            </span>
          </label>
        ))}
        {form.errors.events ? (
          <p class="error" id={`${idp}-events-error`}>
            {form.errors.events}
          </p>
        ) : null}
      </fieldset>
      <Field
        label="Only codes tagged"
        hint="Comma-separated: only codes carrying one of these tags. Empty: every code."
        maxLength={2000}
        {...form.bind('tags')}
      />
      <label class="check">
        <input type="checkbox" checked={includeBots} onChange={(e) => setIncludeBots(e.currentTarget.checked)} />
        <span>Also scans by bots and link previews (scan.created)</span>
      </label>
      <div class="webhook-actions">
        <Button type="submit" busy={form.busy}>
          {submitLabel}
        </Button>
        {onCancel ? (
          <Button variant="secondary" onClick={onCancel}>
            Cancel
          </Button>
        ) : null}
      </div>
    </form>
  );
}

function EndpointCard({
  hook,
  onChange,
  onSecret,
  onDeleted,
}: {
  hook: WebhookView;
  onChange: (w: WebhookView) => void;
  onSecret: (s: Shown) => void;
  onDeleted: () => void;
}) {
  const [editing, setEditing] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);
  const [note, setNote] = useState<string | null>(null);
  const [showLog, setShowLog] = useState(false);
  const [logKey, setLogKey] = useState(0);
  const slug = `w-${hook.id.slice(0, 8)}`;

  const act = async (work: () => Promise<void>, failure: string) => {
    setProblem(null);
    setNote(null);
    try {
      await work();
    } catch (err) {
      setProblem(err instanceof ApiError ? err.message : failure);
    }
  };
  const toggle = () =>
    act(async () => {
      const w = await api.updateWebhook(hook.id, { enabled: !hook.enabled });
      onChange(w);
      announce(w.enabled ? 'Endpoint enabled: what waited is sent now.' : 'Endpoint disabled.');
    }, 'The change failed. Try again.');
  const sendTest = () =>
    act(async () => {
      await api.testWebhook(hook.id);
      setNote('Test event queued: see the delivery log.');
      setShowLog(true);
      setTimeout(() => setLogKey((k) => k + 1), 1500);
    }, 'The test event could not be queued.');
  const rotate = () =>
    act(async () => {
      const r = await api.rotateWebhookSecret(hook.id);
      onChange(r.webhook);
      onSecret({ url: r.webhook.url, secret: r.secret, rotated: true });
      document.getElementById('add-webhook')?.scrollIntoView();
      announce('Secret rotated. Copy the new secret now: it is shown only once.');
    }, 'The secret could not be rotated.');

  return (
    <article class="card webhook" aria-labelledby={`${slug}-url`}>
      <div class="domain__head">
        <h3 id={`${slug}-url`} class="key-name">
          {hook.url}
        </h3>
        <span class={`badge badge--${hook.enabled ? 'active' : 'failed'}`}>{hook.enabled ? 'Enabled' : 'Disabled'}</span>
      </div>
      {hook.description ? <p>{hook.description}</p> : null}
      {!hook.enabled && hook.disabledReason ? (
        <Notice kind="warning">
          {DISABLED_TEXT[hook.disabledReason]} Nothing is sent to it; events wait, and go out when you enable it again.
        </Notice>
      ) : hook.consecutiveFailures > 0 ? (
        <Notice kind="warning">
          The last {hook.consecutiveFailures} deliveries failed. After 20 in a row (or 5 days of failures) the endpoint is disabled.
        </Notice>
      ) : null}
      {problem ? (
        <p class="form-error" role="alert">
          {problem}
        </p>
      ) : null}
      {note ? (
        <p class="done-line" role="status">
          {note}
        </p>
      ) : null}
      {editing ? (
        <EndpointForm
          initial={hook}
          submitLabel="Save endpoint"
          onCancel={() => setEditing(false)}
          onSave={async (body) => {
            onChange(await api.updateWebhook(hook.id, body));
            setEditing(false);
            announce('Endpoint saved.');
          }}
        />
      ) : (
        <>
          <p class="webhook-events-line">
            {hook.events.map((e) => (
              <code key={e}>{e}</code>
            ))}
          </p>
          <p class="muted small">
            {hook.filter.tags.length > 0 ? `Only codes tagged ${hook.filter.tags.join(', ')}. ` : 'Every code. '}
            {hook.filter.itemIds.length > 0 ? `Only ${hook.filter.itemIds.length} chosen codes. ` : ''}
            {hook.includeBots ? 'Bots and link previews included.' : 'Human scans only.'}
            {hook.previousSecretUntil && Date.parse(hook.previousSecretUntil) > Date.now() ? (
              <>
                {' '}
                The previous secret also signs until <When iso={hook.previousSecretUntil} />.
              </>
            ) : null}
          </p>
          <div class="webhook-actions">
            <Button variant="secondary" onClick={() => setEditing(true)} aria-label={`Edit ${hook.url}`}>
              Edit
            </Button>
            <Button variant="secondary" onClick={sendTest} disabled={!hook.enabled}>
              Send test event
            </Button>
            <Button variant="secondary" onClick={toggle}>
              {hook.enabled ? 'Disable' : 'Enable'}
            </Button>
            <ConfirmButton
              label="Rotate secret"
              ariaLabel={`Rotate secret of ${hook.url}`}
              confirmLabel="Rotate"
              question="Make a new secret? The old one keeps signing for 24 hours."
              onConfirm={rotate}
            />
            <ConfirmButton
              label="Delete"
              ariaLabel={`Delete ${hook.url}`}
              confirmLabel="Delete endpoint"
              question="Delete this endpoint and its delivery log?"
              onConfirm={() =>
                act(async () => {
                  await api.deleteWebhook(hook.id);
                  onDeleted();
                  announce('Endpoint deleted.');
                }, 'The endpoint could not be deleted.')
              }
            />
          </div>
        </>
      )}
      <details class="webhook-log" open={showLog} onToggle={(e) => setShowLog((e.currentTarget as HTMLDetailsElement).open)}>
        <summary>Delivery log</summary>
        {showLog ? <DeliveryLog key={logKey} hookId={hook.id} enabled={hook.enabled} onRefresh={() => setLogKey((k) => k + 1)} /> : null}
      </details>
    </article>
  );
}

function statusText(d: WebhookDeliveryView, enabled: boolean): string {
  if (d.status === 'delivered') return 'Delivered';
  if (d.status === 'failed') return 'Failed';
  if (!enabled) return 'Waiting: endpoint disabled';
  return d.attempts === 0 ? 'Queued' : 'Retrying';
}

function DeliveryLog({ hookId, enabled, onRefresh }: { hookId: string; enabled: boolean; onRefresh: () => void }) {
  const [rows, setRows] = useState<WebhookDeliveryView[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    api.webhookDeliveries(hookId).then(
      (r) => setRows(r.deliveries),
      (err: unknown) => setError(err instanceof ApiError ? err.message : 'The delivery log could not be loaded.'),
    );
  }, [hookId]);
  const resend = async (d: WebhookDeliveryView) => {
    try {
      await api.resendDelivery(hookId, d.id);
      announce('Queued again.');
      setTimeout(onRefresh, 1000);
    } catch (err) {
      setError(err instanceof ApiError ? err.message : 'The delivery could not be sent again.');
    }
  };
  if (error)
    return (
      <p class="form-error" role="alert">
        {error}
      </p>
    );
  if (rows === null) return <Spinner />;
  return (
    <>
      <p>
        <Button variant="secondary" onClick={onRefresh}>
          Refresh
        </Button>
      </p>
      {rows.length === 0 ? (
        <p class="muted">Nothing sent yet. Deliveries are kept 30 days.</p>
      ) : (
        <ul class="delivery-list">
          {rows.map((d) => (
            <li key={d.id} class={`delivery delivery--${d.status}`}>
              <div class="delivery__head">
                <code>{d.type}</code>
                <span class={`badge badge--${d.status === 'delivered' ? 'active' : d.status === 'failed' ? 'failed' : 'pending'}`}>
                  {statusText(d, enabled)}
                </span>
                <span class="muted small">
                  <When iso={d.lastAttemptAt ?? d.createdAt} />
                </span>
              </div>
              <p class="small">
                {d.responseStatus !== null ? `HTTP ${d.responseStatus}` : (d.error ?? 'Not sent yet')}
                {d.durationMs !== null ? ` · ${d.durationMs} ms` : ''} · {d.attempts} attempt{d.attempts === 1 ? '' : 's'}
                {d.nextAttemptAt && enabled ? (
                  <>
                    {' '}
                    · next try <When iso={d.nextAttemptAt} />
                  </>
                ) : null}
              </p>
              {d.response ? (
                <details>
                  <summary class="small">Response</summary>
                  <pre class="delivery__response">{d.response}</pre>
                </details>
              ) : null}
              <p class="muted small key-name">
                webhook-id <code>{d.id}</code>
              </p>
              <Button variant="secondary" onClick={() => resend(d)} aria-label={`Resend ${d.type} ${d.id}`}>
                Resend
              </Button>
            </li>
          ))}
        </ul>
      )}
    </>
  );
}
