// Members: everyone sees who is in the account; owners invite by a copyable link,
// change roles, remove members and make password-reset links.
import { useEffect, useRef, useState } from 'preact/hooks';
import { ApiError, type InviteView, type LinkView, type MemberView, type Role, api } from '../../api.ts';
import { announce, byId, useFocusLater } from '../../components/announce.ts';
import { AppLayout } from '../../components/layout.tsx';
import { Button, ConfirmButton, CopyField, FormError, Notice, Spinner, When } from '../../components/ui.tsx';
import { Link } from '../../router.ts';
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
  const [resetFor, setResetFor] = useState<{ userId: string; email: string; link: LinkView } | null>(null);

  const reload = async () => {
    try {
      setMembers(await api.members());
      if (owner) setInvites(await api.invites());
    } catch (err) {
      setError(message(err));
    }
  };
  useEffect(() => void reload(), [owner]);

  const [done, setDone] = useState<{ where: 'members' | 'invites'; text: string } | null>(null);
  const focusLater = useFocusLater();

  /** Runs an owner's action and reads the lists again; true when it worked. A refusal is
   *  shown above the members and takes the focus, so it is heard. */
  const act = async (work: () => Promise<unknown>, what?: string): Promise<boolean> => {
    setError(null);
    setDone(null);
    let ok = true;
    try {
      await work();
    } catch (err) {
      setError(message(err, what));
      focusLater(byId('members-error'));
      ok = false;
    }
    await reload();
    return ok;
  };
  /** After an action whose control went away (a member removed, an invite withdrawn), the
   *  focus goes to the line that says what happened. */
  const report = (where: 'members' | 'invites', text: string) => {
    setDone({ where, text });
    focusLater(byId(`${where}-done`));
  };

  // The server refuses to leave the account without an owner: the last one's role is locked, with the reason beside it.
  const owners = members?.filter((m) => m.role === 'owner').length ?? 0;
  const isLastOwner = (m: MemberView) => m.role === 'owner' && owners === 1;

  const createInvite = async (e: Event) => {
    e.preventDefault();
    if (inviteBusy) return;
    setInviteBusy(true);
    // The link is shown once, in place of the form: the focus goes to it, so it is heard and
    // ready to copy.
    if (await act(async () => setInviteUrl((await api.createInvite(inviteRole)).url))) focusLater(byId('invite-url'));
    setInviteBusy(false);
  };
  const changeRole = async (m: MemberView, role: Role) => {
    const self = m.userId === session?.user.id;
    const ok = await act(async () => {
      await api.changeRole(m.userId, role);
      // Your own role changed: the navigation and what you may do follow it.
      if (self) setSession(await api.session());
    });
    if (!ok) return;
    announce(`${self ? 'You are' : `${m.email} is`} now ${ROLE_NAME[role]}.`);
    // Back to the member's role control; gone when you gave up owning the account.
    focusLater(() => document.getElementById(`role-${m.userId}`) ?? document.getElementById('member-list'));
  };
  const openInvites = invites.length > 0 || done?.where === 'invites';

  return (
    <AppLayout title="Members" section="Account">
      <AccountTabs />
      {owner ? (
        <section aria-labelledby="invite" class="card">
          <h2 id="invite">Invite someone</h2>
          <p class="muted" id="invite-help">
            Make a one-time link and send it to them yourself. It works once, for 7 days.
          </p>
          {inviteUrl ? (
            <div class="created">
              <CopyField id="invite-url" label="Invite link" value={inviteUrl} describedBy="invite-help" />
              <Button
                variant="secondary"
                onClick={() => {
                  setInviteUrl(null);
                  focusLater(byId('create-invite'));
                }}
              >
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
              <Button type="submit" id="create-invite" busy={inviteBusy}>
                Create invite link
              </Button>
            </form>
          )}
        </section>
      ) : null}

      <section aria-labelledby="member-list">
        <h2 id="member-list" tabIndex={-1}>
          Members
        </h2>
        <FormError message={error ?? undefined} id="members-error" />
        {done?.where === 'members' ? <DoneLine id="members-done" text={done.text} /> : null}
        {resetFor ? (
          <div class="card created">
            <Notice id="reset-help">
              Send this link to {resetFor.email}. It sets a new password once, until <When iso={resetFor.link.expiresAt} />.
            </Notice>
            <CopyField id="reset-url" label={`Password reset link for ${resetFor.email}`} value={resetFor.link.url} describedBy="reset-help" />
            <Button
              variant="secondary"
              onClick={() => {
                const back = `reset-${resetFor.userId}`;
                setResetFor(null);
                focusLater(byId(back));
              }}
            >
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
                        <RoleControl member={m} self={m.userId === session?.user.id} locked={isLastOwner(m)} onChange={(role) => changeRole(m, role)} />
                      ) : (
                        ROLE_NAME[m.role]
                      )}
                    </td>
                    <td data-label="Joined">
                      <When iso={m.joinedAt} />
                    </td>
                    {owner ? (
                      <td data-label="Actions" class="actions">
                        {m.userId === session?.user.id ? (
                          // A reset link for oneself is refused: a new password needs the current one.
                          <Link href="/account/profile#password" class="btn btn--secondary">
                            Change password
                          </Link>
                        ) : (
                          <Button
                            variant="secondary"
                            id={`reset-${m.userId}`}
                            aria-label={`Make a password reset link for ${m.email}`}
                            onClick={() =>
                              void act(async () => setResetFor({ userId: m.userId, email: m.email, link: await api.resetLink(m.userId) }), `No reset link for ${m.email}`).then((ok) => {
                                if (ok) focusLater(byId('reset-url'));
                              })
                            }
                          >
                            Reset link
                          </Button>
                        )}
                        {m.userId === session?.user.id ? null : (
                          <ConfirmButton
                            label="Remove"
                            ariaLabel={`Remove ${m.email}`}
                            confirmLabel="Remove"
                            question={`Remove ${m.email} from the account?`}
                            onConfirm={async () => {
                              if (await act(() => api.removeMember(m.userId))) report('members', `${m.email} was removed from the account.`);
                            }}
                          />
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

      {owner && openInvites ? (
        <section aria-labelledby="open-invites">
          <h2 id="open-invites">Open invites</h2>
          {done?.where === 'invites' ? <DoneLine id="invites-done" text={done.text} /> : null}
          {invites.length === 0 ? <p class="muted">No open invites.</p> : null}
          <ul class="list">
            {invites.map((i) => (
              <li key={i.id} class="list__item">
                <span>
                  {ROLE_NAME[i.role]} invite, made <When iso={i.createdAt} />, valid until <When iso={i.expiresAt} />
                </span>
                <ConfirmButton
                  label="Withdraw"
                  ariaLabel="Withdraw this invite"
                  confirmLabel="Withdraw"
                  question="Withdraw this invite?"
                  onConfirm={async () => {
                    if (await act(() => api.revokeInvite(i.id))) report('invites', `The ${ROLE_NAME[i.role].toLowerCase()} invite made ${dateText(i.createdAt)} was withdrawn.`);
                  }}
                />
              </li>
            ))}
          </ul>
        </section>
      ) : null}
    </AppLayout>
  );
}

const dateText = (iso: string) => new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' }).format(new Date(iso));

/** What an action did, where its control was; it takes the focus, so it is read at once. */
function DoneLine({ id, text }: { id: string; text: string }) {
  return (
    <p class="done-line" id={id} tabIndex={-1}>
      {text}
    </p>
  );
}

/**
 * A member's role. The select only picks (arrow keys on a closed select change its value,
 * so applying on change gave a role per key press); *Change role* or Enter applies it. Making
 * someone owner, or changing your own role, asks first: both hand over or give up control of
 * the account.
 */
function RoleControl({ member, self, locked, onChange }: { member: MemberView; self: boolean; locked: boolean; onChange: (role: Role) => Promise<void> }) {
  const [picked, setPicked] = useState<Role>(member.role);
  const [asking, setAsking] = useState(false);
  const [busy, setBusy] = useState(false);
  const select = useRef<HTMLSelectElement>(null);
  const yes = useRef<HTMLButtonElement>(null);
  useEffect(() => setPicked(member.role), [member.role]);
  useEffect(() => {
    if (asking) yes.current?.focus();
  }, [asking]);
  const id = `role-${member.userId}`;
  const pending = picked !== member.role;
  const reset = () => {
    setPicked(member.role);
    setAsking(false);
    select.current?.focus();
  };
  const apply = async () => {
    if (busy || !pending) return;
    setAsking(false);
    setBusy(true);
    try {
      await onChange(picked);
    } finally {
      setBusy(false);
    }
  };
  const request = () => {
    if (!pending || busy) return;
    if (picked === 'owner' || self) setAsking(true);
    else void apply();
  };
  const question = picked === 'owner' ? `Make ${self ? 'yourself' : member.email} an owner? Owners manage keys and members, and may remove other owners.` : `Change your own role to ${ROLE_NAME[picked]}? You will no longer manage keys and members.`;
  const help = locked ? `last-owner-${member.userId}` : pending ? `${id}-pending` : undefined;
  return (
    <div
      class="role-cell"
      onKeyDown={(e) => {
        if (e.key === 'Escape' && pending && !busy) {
          e.preventDefault();
          reset();
        }
      }}
    >
      <select
        ref={select}
        id={id}
        aria-label={`Role of ${member.email}`}
        value={picked}
        disabled={locked}
        aria-describedby={help}
        onChange={(e) => {
          setPicked(e.currentTarget.value as Role);
          setAsking(false);
        }}
        onKeyDown={(e) => {
          if (e.key === 'Enter') {
            e.preventDefault();
            request();
          }
        }}
      >
        {ROLES.map((r) => (
          <option key={r.value} value={r.value}>
            {ROLE_NAME[r.value]}
          </option>
        ))}
      </select>
      {locked ? (
        <span class="muted small" id={`last-owner-${member.userId}`}>
          The account needs at least one owner: make another member owner first.
        </span>
      ) : null}
      {pending && !asking ? (
        <span class="role-cell__pending">
          <span class="visually-hidden" id={`${id}-pending`}>
            Not changed yet: press Enter or Change role to apply.
          </span>
          <Button variant="primary" busy={busy} aria-label={`Change role of ${member.email} to ${ROLE_NAME[picked]}`} onClick={request}>
            Change role
          </Button>
          <Button variant="secondary" onClick={reset}>
            Cancel
          </Button>
        </span>
      ) : null}
      {pending && asking ? (
        <span class="confirm" role="group" aria-label={question}>
          <span class="confirm__q">{question}</span>
          <button ref={yes} type="button" class="btn btn--danger" aria-disabled={busy ? 'true' : undefined} onClick={() => void apply()}>
            {picked === 'owner' ? 'Make owner' : `Become ${ROLE_NAME[picked]}`}
          </button>
          <Button variant="secondary" onClick={reset}>
            Cancel
          </Button>
        </span>
      ) : null}
    </div>
  );
}
