// Members: everyone sees who is in the account; owners invite by a copyable link,
// change roles, remove members and make password-reset links.
import { useEffect, useState } from 'preact/hooks';
import { ApiError, type InviteView, type LinkView, type MemberView, type Role, api } from '../../api.ts';
import { AppLayout } from '../../components/layout.tsx';
import { Button, ConfirmButton, CopyField, FormError, Notice, Spinner, When } from '../../components/ui.tsx';
import { setSession, useAppState } from '../../store.ts';
import { AccountTabs } from './account-tabs.tsx';
import './account.css';

const ROLES: Array<{ value: Role; text: string }> = [
  { value: 'viewer', text: 'Viewer: sees codes and stats' },
  { value: 'editor', text: 'Editor: also edits codes' },
  { value: 'owner', text: 'Owner: also keys and members' },
];
const ROLE_NAME: Record<Role, string> = { owner: 'Owner', editor: 'Editor', viewer: 'Viewer' };

/** The API's message (already without its field name), after what failed ("No reset link for …") when given. */
const message = (err: unknown, what?: string) => {
  const text = err instanceof ApiError ? err.message : 'Something went wrong. Try again.';
  return what ? `${what}. ${text}` : text;
};

export default function MembersPage() {
  const { session } = useAppState();
  const owner = session?.account.role === 'owner';
  const [members, setMembers] = useState<MemberView[] | null>(null);
  const [invites, setInvites] = useState<InviteView[]>([]);
  const [error, setError] = useState<string | null>(null);
  const [inviteRole, setInviteRole] = useState<Role>('editor');
  const [inviteUrl, setInviteUrl] = useState<string | null>(null);
  const [inviteBusy, setInviteBusy] = useState(false);
  const [resetFor, setResetFor] = useState<{ email: string; link: LinkView } | null>(null);

  const reload = async () => {
    try {
      setMembers(await api.members());
      if (owner) setInvites(await api.invites());
    } catch (err) {
      setError(message(err));
    }
  };
  useEffect(() => void reload(), [owner]);

  const act = async (work: () => Promise<unknown>, what?: string) => {
    setError(null);
    try {
      await work();
    } catch (err) {
      setError(message(err, what));
    }
    await reload();
  };

  // The server refuses to leave the account without an owner: the last one's role is locked, with the reason beside it.
  const owners = members?.filter((m) => m.role === 'owner').length ?? 0;
  const isLastOwner = (m: MemberView) => m.role === 'owner' && owners === 1;

  const createInvite = async (e: Event) => {
    e.preventDefault();
    setInviteBusy(true);
    await act(async () => setInviteUrl((await api.createInvite(inviteRole)).url));
    setInviteBusy(false);
  };

  return (
    <AppLayout title="Account">
      <AccountTabs />
      {owner ? (
        <section aria-labelledby="invite" class="card">
          <h2 id="invite">Invite someone</h2>
          <p class="muted">Make a one-time link and send it to them yourself. It works once, for 7 days.</p>
          {inviteUrl ? (
            <div class="created">
              <CopyField id="invite-url" label="Invite link" value={inviteUrl} />
              <Button variant="secondary" onClick={() => setInviteUrl(null)}>
                Done
              </Button>
            </div>
          ) : (
            <form onSubmit={createInvite} class="inline-form">
              <div class="field">
                <label for="invite-role">Role</label>
                <select id="invite-role" value={inviteRole} onChange={(e) => setInviteRole(e.currentTarget.value as Role)}>
                  {ROLES.map((r) => (
                    <option key={r.value} value={r.value}>
                      {r.text}
                    </option>
                  ))}
                </select>
              </div>
              <Button type="submit" busy={inviteBusy}>
                Create invite link
              </Button>
            </form>
          )}
        </section>
      ) : null}

      <section aria-labelledby="member-list">
        <h2 id="member-list">Members</h2>
        <FormError message={error ?? undefined} />
        {resetFor ? (
          <div class="card created">
            <Notice>Send this link to {resetFor.email}. It sets a new password once, until <When iso={resetFor.link.expiresAt} />.</Notice>
            <CopyField id="reset-url" label={`Password reset link for ${resetFor.email}`} value={resetFor.link.url} />
            <Button variant="secondary" onClick={() => setResetFor(null)}>
              Done
            </Button>
          </div>
        ) : null}
        {members === null ? (
          <Spinner />
        ) : (
          <div class="table-wrap">
            <table class="table">
              <caption class="visually-hidden">Members of this account</caption>
              <thead>
                <tr>
                  <th scope="col">Email</th>
                  <th scope="col">Role</th>
                  <th scope="col">Joined</th>
                  {owner ? (
                    <th scope="col">
                      <span class="visually-hidden">Actions</span>
                    </th>
                  ) : null}
                </tr>
              </thead>
              <tbody>
                {members.map((m) => (
                  <tr key={m.userId}>
                    <td data-label="Email">
                      {m.email}
                      {m.userId === session?.user.id ? <span class="muted"> (you)</span> : null}
                    </td>
                    <td data-label="Role">
                      {owner ? (
                        <div class="role-cell">
                          <select
                            aria-label={`Role of ${m.email}`}
                            value={m.role}
                            disabled={isLastOwner(m)}
                            aria-describedby={isLastOwner(m) ? `last-owner-${m.userId}` : undefined}
                            onChange={(e) => {
                              const role = e.currentTarget.value as Role;
                              void act(async () => {
                                await api.changeRole(m.userId, role);
                                // Your own role changed: the navigation and what you may do follow it.
                                if (m.userId === session?.user.id) setSession(await api.session());
                              });
                            }}
                          >
                            {ROLES.map((r) => (
                              <option key={r.value} value={r.value}>
                                {ROLE_NAME[r.value]}
                              </option>
                            ))}
                          </select>
                          {isLastOwner(m) ? (
                            <span class="muted small" id={`last-owner-${m.userId}`}>
                              The account needs at least one owner: make another member owner first.
                            </span>
                          ) : null}
                        </div>
                      ) : (
                        ROLE_NAME[m.role]
                      )}
                    </td>
                    <td data-label="Joined">
                      <When iso={m.joinedAt} />
                    </td>
                    {owner ? (
                      <td data-label="Actions" class="actions">
                        <Button variant="secondary" aria-label={`Make a password reset link for ${m.email}`} onClick={() => void act(async () => setResetFor({ email: m.email, link: await api.resetLink(m.userId) }), `No reset link for ${m.email}`)}>
                          Reset link
                        </Button>
                        {m.userId === session?.user.id ? null : (
                          <ConfirmButton label="Remove" ariaLabel={`Remove ${m.email}`} confirmLabel="Remove" question={`Remove ${m.email} from the account?`} onConfirm={() => act(() => api.removeMember(m.userId))} />
                        )}
                      </td>
                    ) : null}
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
      </section>

      {owner && invites.length > 0 ? (
        <section aria-labelledby="open-invites">
          <h2 id="open-invites">Open invites</h2>
          <ul class="list">
            {invites.map((i) => (
              <li key={i.id} class="list__item">
                <span>
                  {ROLE_NAME[i.role]} invite, made <When iso={i.createdAt} />, valid until <When iso={i.expiresAt} />
                </span>
                <ConfirmButton label="Withdraw" ariaLabel="Withdraw this invite" confirmLabel="Withdraw" question="Withdraw this invite?" onConfirm={() => act(() => api.revokeInvite(i.id))} />
              </li>
            ))}
          </ul>
        </section>
      ) : null}
    </AppLayout>
  );
}
