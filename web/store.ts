// The signed-in session, shared by every page. undefined while it is being read.
import { useEffect, useState } from 'preact/hooks';
import { type InstanceView, type SessionView, api } from './api.ts';

type State = {
  session: SessionView | null | undefined;
  instance: InstanceView | null;
  /** The session ended under the app (expired, or signed out elsewhere), not by "Sign out". */
  sessionEnded: boolean;
  /** The user has just signed out with *Sign out*: the sign-in page says so. */
  signedOut: boolean;
};
let state: State = { session: undefined, instance: null, sessionEnded: false, signedOut: false };
const listeners = new Set<() => void>();

function set(patch: Partial<State>): void {
  state = { ...state, ...patch };
  for (const l of listeners) l();
}

export function useAppState(): State {
  const [, force] = useState(0);
  const rendered = state;
  useEffect(() => {
    const l = () => force((n) => n + 1);
    listeners.add(l);
    // Effects run after the paint: a change made between the render and this subscription
    // (the session read at start answers that fast from a warm cache) would be missed, and
    // the app would show "Loading" for ever.
    if (state !== rendered) l();
    return () => void listeners.delete(l);
  }, []);
  return state;
}

export function setSession(session: SessionView | null): void {
  set({ session, sessionEnded: false, signedOut: false });
}

/** Signed out by the user (Sign out, Sign out everywhere). */
export function signedOut(): void {
  set({ session: null, sessionEnded: false, signedOut: true });
}

/** A request found the session gone: the sign-in page says so. */
export function sessionEnded(): void {
  set({ session: null, sessionEnded: true });
}

/** The instance as read again (its public address changed). */
export function setInstance(instance: InstanceView): void {
  set({ instance });
}

/** Reads the session and the instance's setup state at start. */
export async function loadSession(): Promise<void> {
  const [session, instance] = await Promise.all([api.session().catch(() => null), api.instance().catch(() => null)]);
  set({ session, instance });
}

export function can(session: SessionView | null | undefined, what: 'write' | 'manage'): boolean {
  if (!session) return false;
  return what === 'manage' ? session.account.role === 'owner' : session.scopes.includes('qr:write');
}
