// The account's members and (for an owner) its open invites, and how an owner's action on
// them runs: the lists are read again after it, a refusal is shown above the members and
// takes the focus (so it is heard), and an action whose control went away (a member
// removed, an invite withdrawn) says what it did, where the control was.
import { useEffect, useState } from 'preact/hooks';
import { ApiError, api, type InviteView, type MemberView } from '../../api.ts';
import { byId, useFocusLater } from '../../components/announce.ts';

export type DonePlace = 'members' | 'invites';

export interface Team {
  /** null while they are read. */
  members: MemberView[] | null;
  invites: InviteView[];
  /** The last refusal, shown above the members (#members-error). */
  error: string | null;
  /** What the last action did, shown at #<where>-done. */
  done: { where: DonePlace; text: string } | null;
  /** Runs an owner's action and reads the lists again; true when it worked. `what` names what failed ("No reset link for …"). */
  act(work: () => Promise<unknown>, what?: string): Promise<boolean>;
  /** Says what an action did where its control was, and moves the focus there. */
  report(where: DonePlace, text: string): void;
}

/** The API's message (already without its field name), after what failed when given. */
function message(err: unknown, what?: string): string {
  const text = err instanceof ApiError ? err.message : 'Something went wrong. Try again.';
  return what ? `${what}. ${text}` : text;
}

export function useMembers(owner: boolean): Team {
  const [members, setMembers] = useState<MemberView[] | null>(null);
  const [invites, setInvites] = useState<InviteView[]>([]);
  const [error, setError] = useState<string | null>(null);
  const [done, setDone] = useState<Team['done']>(null);
  const focusLater = useFocusLater();
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
  const report = (where: DonePlace, text: string) => {
    setDone({ where, text });
    focusLater(byId(`${where}-done`));
  };
  return { members, invites, error, done, act, report };
}
