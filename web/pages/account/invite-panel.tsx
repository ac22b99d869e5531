import { useState } from 'preact/hooks';
import { api, type Role } from '../../api.ts';
import { byId, useFocusLater } from '../../components/announce.ts';
import { Button, CopyField } from '../../components/ui.tsx';
import { ROLES } from './roles.ts';
import type { Team } from './use-members.ts';

/** An owner's invite: a role picked, then a one-time link shown in place of the form until Done. */
export function InvitePanel({ act }: { act: Team['act'] }) {
  const [role, setRole] = useState<Role>('editor');
  const [email, setEmail] = useState('');
  const [url, setUrl] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const focusLater = useFocusLater();
  const create = async (e: Event) => {
    e.preventDefault();
    if (busy) return;
    setBusy(true);
    // The link is shown once, in place of the form: the focus goes to it, so it is heard and
    // ready to copy.
    if (await act(async () => setUrl((await api.createInvite(role, email.trim() || null)).url))) {
      setEmail('');
      focusLater(byId('invite-url'));
    }
    setBusy(false);
  };
  return (
    <section aria-labelledby="invite" class="card">
      <h2 id="invite">Invite someone</h2>
      <p class="muted" id="invite-help">
        Make a one-time link and send it to them yourself. It works once, for 7 days.
      </p>
      {url ? (
        <div class="created">
          <CopyField id="invite-url" label="Invite link" value={url} describedBy="invite-help" />
          <Button
            variant="secondary"
            onClick={() => {
              setUrl(null);
              focusLater(byId('create-invite'));
            }}
          >
            Done
          </Button>
        </div>
      ) : (
        <form onSubmit={create} class="inline-form">
          <div class="field">
            <label for="invite-role">Role</label>
            <select id="invite-role" value={role} onChange={(e) => setRole(e.currentTarget.value as Role)}>
              {ROLES.map((r) => (
                <option key={r.value} value={r.value}>
                  {r.text}
                </option>
              ))}
            </select>
          </div>
          <div class="field">
            <label for="invite-email">
              For <span class="optional">(optional)</span>
            </label>
            <p class="hint" id="invite-email-hint">
              Their email, to tell open invites apart; the link works for whoever opens it
            </p>
            <input
              id="invite-email"
              type="email"
              autoComplete="off"
              value={email}
              aria-describedby="invite-email-hint"
              onInput={(e) => setEmail(e.currentTarget.value)}
            />
          </div>
          <Button type="submit" id="create-invite" busy={busy}>
            Create invite link
          </Button>
        </form>
      )}
    </section>
  );
}
