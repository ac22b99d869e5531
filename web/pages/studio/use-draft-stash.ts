// The session ending takes the app to the sign-in page: unsaved edits are stashed on the way
// out (draft-stash.ts), and offered back when this page opens again for the same user.
import { useEffect, useRef, useState } from 'preact/hooks';
import { onSignedOut, type SessionView } from '../../api.ts';
import { completeDraft, type Draft } from './draft-model.ts';
import { dropStashedDraft, type StashedDraft, stashDraft, stashedDraftFor } from './draft-stash.ts';

export function useDraftStash(
  path: string,
  session: SessionView | null | undefined,
  draft: Draft | null,
  dirty: boolean,
): { stashed: StashedDraft | null; drop(): void } {
  const [stashed, setStashed] = useState<StashedDraft | null>(() => {
    const kept = session ? stashedDraftFor(path, session.user.id, session.account.id) : null;
    return kept && { ...kept, draft: completeDraft(kept.draft) };
  });
  const latest = useRef({ draft, dirty, session });
  latest.current = { draft, dirty, session };
  useEffect(
    () =>
      onSignedOut(() => {
        const { draft: d, dirty: changed, session: s } = latest.current;
        if (d && changed && s) stashDraft({ path, userId: s.user.id, accountId: s.account.id, draft: d });
      }),
    [path],
  );
  const drop = () => {
    dropStashedDraft();
    setStashed(null);
  };
  return { stashed, drop };
}
