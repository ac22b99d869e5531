// Unsaved studio edits kept when the session ends mid-edit (expired, or signed out in another
// window): the app goes to the sign-in page, and the same page offers them back once the user
// has signed in again. Kept in sessionStorage: this tab only, gone when it closes; one at a time.
// Types only: the app's entry imports this file (hasStashedDraft), and the studio's model stays in the studio's chunk.
import type { Draft } from './draft-model.ts';

export interface StashedDraft {
  /** The studio's path: /codes/new or /codes/:id/edit. */
  path: string;
  userId: string;
  accountId: string;
  savedAt: string;
  draft: Draft;
}

const KEY = 'qrtrack.unsaved-draft';

export function stashDraft(stash: Omit<StashedDraft, 'savedAt'>): void {
  // A password being typed is a secret: it is not written to storage, and is asked for again.
  const draft = { ...stash.draft, password: { value: '', remove: stash.draft.password.remove } };
  try {
    sessionStorage.setItem(KEY, JSON.stringify({ ...stash, draft, savedAt: new Date().toISOString() }));
  } catch {
    // storage blocked or full (a large logo): nothing more can be kept
  }
}

function read(): StashedDraft | null {
  try {
    const raw = sessionStorage.getItem(KEY);
    const value: unknown = raw === null ? null : JSON.parse(raw);
    return isStash(value) ? value : null;
  } catch {
    return null;
  }
}

/** Whether edits are waiting for the user to sign in again. */
export function hasStashedDraft(): boolean {
  return read() !== null;
}

/** The edits kept for this page, user and account, if any (as kept: an older app's draft lacks fields, see completeDraft). */
export function stashedDraftFor(path: string, userId: string, accountId: string): StashedDraft | null {
  const stash = read();
  return stash && stash.path === path && stash.userId === userId && stash.accountId === accountId ? stash : null;
}

export function dropStashedDraft(): void {
  try {
    sessionStorage.removeItem(KEY);
  } catch {
    // storage blocked: nothing was kept
  }
}

/** Our own JSON, but a tab may hold one written by an older version of the app. */
function isStash(v: unknown): v is StashedDraft {
  if (typeof v !== 'object' || v === null) return false;
  const s = v as Record<string, unknown>;
  const d = s.draft as Record<string, unknown> | null | undefined;
  return (
    typeof s.path === 'string' &&
    typeof s.userId === 'string' &&
    typeof s.accountId === 'string' &&
    typeof s.savedAt === 'string' &&
    typeof d === 'object' &&
    d !== null &&
    typeof d.title === 'string' &&
    typeof d.content === 'object' &&
    d.content !== null &&
    typeof d.design === 'object' &&
    d.design !== null
  );
}
