import { useEffect, useRef, useState } from 'preact/hooks';
import type { MemberView, Role } from '../../api.ts';
import { Button } from '../../components/ui.tsx';
import { ROLE_NAME, ROLES } from './roles.ts';

interface RoleControlProps {
  member: MemberView;
  self: boolean;
  locked: boolean;
  onChange: (role: Role) => Promise<void>;
}

/**
 * A member's role. The select only picks (arrow keys on a closed select change its value,
 * so applying on change gave a role per key press); *Change role* or Enter applies it. Making
 * someone owner, or changing your own role, asks first: both hand over or give up control of
 * the account.
 */
export function RoleControl({ member, self, locked, onChange }: RoleControlProps) {
  const choice = useRoleChoice(member, self, onChange);
  const { picked, asking, busy, pending, reset, request } = choice;
  const id = `role-${member.userId}`;
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
        ref={choice.select}
        id={id}
        aria-label={`Role of ${member.email}`}
        value={picked}
        disabled={locked}
        aria-describedby={help}
        onChange={(e) => choice.pick(e.currentTarget.value as Role)}
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
      {pending && asking ? <RoleConfirm member={member} self={self} choice={choice} /> : null}
    </div>
  );
}

/** The question before a change that hands over or gives up control; its answer button takes the focus. */
function RoleConfirm({ member, self, choice }: { member: MemberView; self: boolean; choice: RoleChoice }) {
  const { picked, busy, yes, apply, reset } = choice;
  const question =
    picked === 'owner'
      ? `Make ${self ? 'yourself' : member.email} an owner? Owners manage keys and members, and may remove other owners.`
      : `Change your own role to ${ROLE_NAME[picked]}? You will no longer manage keys and members.`;
  return (
    <span class="confirm" role="group" aria-label={question}>
      <span class="confirm__q">{question}</span>
      <button ref={yes} type="button" class="btn btn--danger" aria-disabled={busy ? 'true' : undefined} onClick={() => void apply()}>
        {picked === 'owner' ? 'Make owner' : `Become ${ROLE_NAME[picked]}`}
      </button>
      <Button variant="secondary" onClick={reset}>
        Cancel
      </Button>
    </span>
  );
}

type RoleChoice = ReturnType<typeof useRoleChoice>;

/** The role picked in the select, not applied yet (`pending`), and whether the change is being asked about or applied. */
function useRoleChoice(member: MemberView, self: boolean, onChange: (role: Role) => Promise<void>) {
  const [picked, setPicked] = useState<Role>(member.role);
  const [asking, setAsking] = useState(false);
  const [busy, setBusy] = useState(false);
  const select = useRef<HTMLSelectElement>(null);
  const yes = useRef<HTMLButtonElement>(null);
  useEffect(() => setPicked(member.role), [member.role]);
  useEffect(() => {
    if (asking) yes.current?.focus();
  }, [asking]);
  const pending = picked !== member.role;
  const pick = (role: Role) => {
    setPicked(role);
    setAsking(false);
  };
  const reset = () => {
    pick(member.role);
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
  return { picked, asking, busy, pending, select, yes, pick, reset, apply, request };
}
