import { type MemberView, type Role, api } from '../../api.ts';
import { announce, useFocusLater } from '../../components/announce.ts';
import { Button, ConfirmButton, When } from '../../components/ui.tsx';
import { Link } from '../../router.ts';
import { setSession } from '../../store.ts';
import { RoleControl } from './role-control.tsx';
import { ROLE_NAME } from './roles.ts';
import type { Team } from './use-members.ts';

interface MemberRowProps {
  member: MemberView;
  /** The signed-in user's own row. */
  self: boolean;
  /** The viewer of the page is an owner: roles, reset links and removal. */
  owner: boolean;
  /** The account's only owner: the server refuses to leave it without one, so the role is locked. */
  lastOwner: boolean;
  act: Team['act'];
  report: Team['report'];
  onResetLink(): void;
}

/** One member: email, role (an owner changes it), joined, and an owner's actions. */
export function MemberRow({ member: m, self, owner, lastOwner, act, report, onResetLink }: MemberRowProps) {
  const focusLater = useFocusLater();
  const changeRole = async (role: Role) => {
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
  return (
    <tr>
      <td data-label="Email">
        {m.email}
        {self ? <span class="muted"> (you)</span> : null}
      </td>
      <td data-label="Role">
        {owner ? <RoleControl member={m} self={self} locked={lastOwner} onChange={changeRole} /> : ROLE_NAME[m.role]}
      </td>
      <td data-label="Joined">
        <When iso={m.joinedAt} />
      </td>
      {owner ? (
        <td data-label="Actions" class="actions">
          {self ? (
            // A reset link for oneself is refused: a new password needs the current one.
            <Link href="/account/profile#password" class="btn btn--secondary">
              Change password
            </Link>
          ) : (
            <Button
              variant="secondary"
              id={`reset-${m.userId}`}
              aria-label={`Make a password reset link for ${m.email}`}
              onClick={onResetLink}
            >
              Reset link
            </Button>
          )}
          {self ? null : (
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
  );
}
