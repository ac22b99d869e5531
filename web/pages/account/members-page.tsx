// Members: everyone sees who is in the account; owners invite by a copyable link,
// change roles, remove members and make password-reset links. One panel per file.
import { AppLayout } from '../../components/layout.tsx';
import { useAppState } from '../../store.ts';
import { AccountTabs } from './account-tabs.tsx';
import { InvitePanel } from './invite-panel.tsx';
import { MemberList } from './member-list.tsx';
import { OpenInvites } from './open-invites.tsx';
import { useMembers } from './use-members.ts';
import './account.css';

export default function MembersPage() {
  const { session } = useAppState();
  const owner = session?.account.role === 'owner';
  const team = useMembers(owner);
  return (
    <AppLayout title="Members" section="Account">
      <AccountTabs />
      {owner ? <InvitePanel act={team.act} /> : null}
      <MemberList team={team} owner={owner} selfId={session?.user.id} />
      {owner ? <OpenInvites team={team} /> : null}
    </AppLayout>
  );
}
