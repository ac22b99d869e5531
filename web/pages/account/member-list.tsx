import { useState } from 'preact/hooks';
import { type MemberView, api } from '../../api.ts';
import { byId, useFocusLater } from '../../components/announce.ts';
import { FormError, Spinner } from '../../components/ui.tsx';
import { DoneLine } from './done-line.tsx';
import { MemberRow } from './member-row.tsx';
import { type ResetLink, ResetLinkCard } from './reset-link-card.tsx';
import type { Team } from './use-members.ts';

/** Everyone in the account, for everyone; above the table, a refusal, what an action did, or a reset link just made. */
export function MemberList({ team, owner, selfId }: { team: Team; owner: boolean; selfId: string | undefined }) {
  const { members, error, done, act, report } = team;
  const [resetFor, setResetFor] = useState<ResetLink | null>(null);
  const focusLater = useFocusLater();
  // The server refuses to leave the account without an owner: the last one's role is locked, with the reason beside it.
  const owners = members?.filter((m) => m.role === 'owner').length ?? 0;
  const makeResetLink = (m: MemberView) =>
    void act(
      async () => setResetFor({ userId: m.userId, email: m.email, link: await api.resetLink(m.userId) }),
      `No reset link for ${m.email}`,
    ).then((ok) => {
      if (ok) focusLater(byId('reset-url'));
    });
  const closeResetLink = (reset: ResetLink) => {
    setResetFor(null);
    focusLater(byId(`reset-${reset.userId}`));
  };
  return (
    <section aria-labelledby="member-list">
      <h2 id="member-list" tabIndex={-1}>
        Members
      </h2>
      <FormError message={error ?? undefined} id="members-error" />
      {done?.where === 'members' ? <DoneLine id="members-done" text={done.text} /> : null}
      {resetFor ? <ResetLinkCard reset={resetFor} onDone={() => closeResetLink(resetFor)} /> : null}
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
                <MemberRow
                  key={m.userId}
                  member={m}
                  self={m.userId === selfId}
                  owner={owner}
                  lastOwner={m.role === 'owner' && owners === 1}
                  act={act}
                  report={report}
                  onResetLink={() => makeResetLink(m)}
                />
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}
