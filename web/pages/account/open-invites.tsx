import { api } from '../../api.ts';
import { ConfirmButton, When } from '../../components/ui.tsx';
import { DoneLine } from './done-line.tsx';
import { ROLE_NAME } from './roles.ts';
import type { Team } from './use-members.ts';

const dateText = (iso: string) => new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' }).format(new Date(iso));

/** An owner's open invites, each one withdrawable; shown while there are any, or to say the last one was withdrawn. */
export function OpenInvites({ team }: { team: Team }) {
  const { invites, done, act, report } = team;
  if (invites.length === 0 && done?.where !== 'invites') return null;
  return (
    <section aria-labelledby="open-invites">
      <h2 id="open-invites">Open invites</h2>
      {done?.where === 'invites' ? <DoneLine id="invites-done" text={done.text} /> : null}
      {invites.length === 0 ? <p class="muted">No open invites.</p> : null}
      <ul class="list">
        {invites.map((i) => (
          <li key={i.id} class="list__item">
            <span>
              {i.email ? (
                <>
                  <strong class="invite__for">{i.email}</strong>
                  {': '}
                </>
              ) : null}
              {ROLE_NAME[i.role]} invite, made {dateText(i.createdAt)}, valid until <When iso={i.expiresAt} />
            </span>
            <ConfirmButton
              label="Withdraw"
              ariaLabel={`Withdraw the ${ROLE_NAME[i.role].toLowerCase()} invite${i.email ? ` for ${i.email}` : ''} made ${dateText(i.createdAt)}`}
              confirmLabel="Withdraw"
              question="Withdraw this invite?"
              onConfirm={async () => {
                if (await act(() => api.revokeInvite(i.id)))
                  report(
                    'invites',
                    `The ${ROLE_NAME[i.role].toLowerCase()} invite${i.email ? ` for ${i.email}` : ''} made ${dateText(i.createdAt)} was withdrawn.`,
                  );
              }}
            />
          </li>
        ))}
      </ul>
    </section>
  );
}
