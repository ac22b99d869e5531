// The two page frames: the signed-in shell (header, navigation, account switcher) and
// the narrow frame of the public pages (sign in, setup, invite, reset). Each page has
// one h1, which takes the focus when the page changes so screen readers announce it.
import type { ComponentChildren, JSX } from 'preact';
import { useEffect, useRef, useState } from 'preact/hooks';
import { type SessionView, api } from '../api.ts';
import { Link, navigate, usePath } from '../router.ts';
import { setSession, signedOut, useAppState } from '../store.ts';
import { announce } from './announce.ts';

/**
 * The document title follows the page's title; the h1 takes the focus when the page changes.
 * A title that changes on the same page (a code renamed by a save) leaves the focus where the
 * user is, unless what held it is gone (a form replaced by its result), so it is never lost.
 */
function useTitle(title: string, section?: string) {
  const h1 = useRef<HTMLHeadingElement>(null);
  const path = usePath();
  const first = useRef(true);
  useEffect(() => {
    h1.current?.focus({ preventScroll: true });
  }, [path]);
  useEffect(() => {
    document.title = [title, section, 'qrtrack'].filter(Boolean).join(' · ');
    if (first.current) {
      first.current = false;
      return;
    }
    if (document.activeElement === null || document.activeElement === document.body) h1.current?.focus({ preventScroll: true });
  }, [title, section]);
  return h1;
}

export function Brand() {
  return (
    <span class="brand">
      <svg viewBox="0 0 24 24" width="22" height="22" aria-hidden="true" focusable="false">
        <path
          fill="currentColor"
          d="M3 3h8v8H3zm2 2v4h4V5zm8-2h8v8h-8zm2 2v4h4V5zM3 13h8v8H3zm2 2v4h4v-4zm8-2h2v2h-2zm2 2h2v2h-2zm2-2h2v2h-2zm2 2h2v2h-2zm-4 2h2v2h-2zm2 2h2v2h-2zm2-2h2v2h-2z"
        />
      </svg>
      qrtrack
    </span>
  );
}

const NAV = [
  { href: '/codes', label: 'Codes' },
  { href: '/overview', label: 'Overview' },
  { href: '/account', label: 'Account' },
];

/** `section` (e.g. "Account") joins the document title after the page's own, so each tab of a section has a title of its own. */
export function AppLayout({
  title,
  section,
  children,
  actions,
}: {
  title: string;
  section?: string;
  children: ComponentChildren;
  actions?: ComponentChildren;
}) {
  const { session, instance } = useAppState();
  const path = usePath();
  const h1 = useTitle(title, section);
  const addressWarning = instance?.publicAddress.warning ?? null;
  const signOut = async () => {
    await api.signOut().catch(() => undefined);
    signedOut();
    navigate('/sign-in');
    announce('You are signed out.');
  };
  return (
    <div class="shell">
      <a class="skip" href="#main">
        Skip to content
      </a>
      <header class="topbar">
        <div class="topbar__inner">
          <Link href="/codes" class="topbar__brand" aria-label="qrtrack, your codes">
            <Brand />
          </Link>
          <nav aria-label="Main" class="nav">
            {NAV.map((n) => (
              <Link
                key={n.href}
                href={n.href}
                class="nav__link"
                aria-current={path === n.href || path.startsWith(`${n.href}/`) ? 'page' : undefined}
              >
                {n.label}
              </Link>
            ))}
          </nav>
          <div class="topbar__me">
            {session && session.accounts.length > 1 ? (
              <AccountSwitch session={session} />
            ) : (
              <span class="topbar__account">{session?.account.name}</span>
            )}
            <button type="button" class="btn btn--link" onClick={signOut}>
              Sign out
            </button>
          </div>
        </div>
      </header>
      {addressWarning ? (
        <div class="address-banner" id="address-banner">
          <p>
            <strong>Phones cannot open these codes yet.</strong> They point to {instance?.publicAddress.url}, an address{' '}
            {reachText(addressWarning)} can reach.{' '}
            {session?.account.role === 'owner' ? (
              instance?.publicAddress.source === 'env' ? (
                <>
                  Set <code>PUBLIC_BASE_URL</code> to the public address and restart.
                </>
              ) : (
                <Link href="/account/domains">Set the public address</Link>
              )
            ) : (
              'Ask an owner to set the public address.'
            )}
          </p>
        </div>
      ) : null}
      <main id="main" class="main">
        <div class="page-head">
          <h1 ref={h1} tabIndex={-1}>
            {title}
          </h1>
          {actions}
        </div>
        {children}
      </main>
      {/* The server's own pages, outside the app: plain links. */}
      <footer class="app-footer small muted">
        <a href="/docs">API reference</a> · <a href="/v1/openapi.json">OpenAPI document</a>
      </footer>
    </div>
  );
}

/** "only this machine" or "only this network", from the server's warning. */
function reachText(warning: string): string {
  return /only this machine/.test(warning) ? 'only this machine' : 'only this network';
}

export function PublicLayout({ title, children, intro }: { title: string; children: ComponentChildren; intro?: ComponentChildren }) {
  const h1 = useTitle(title);
  return (
    <main id="main" class="public">
      <div class="card public__card">
        <p class="public__brand">
          <Brand />
        </p>
        <h1 ref={h1} tabIndex={-1}>
          {title}
        </h1>
        {intro ? <div class="public__intro">{intro}</div> : null}
        {children}
      </div>
    </main>
  );
}

/**
 * The account switcher. Choosing in the list (arrow keys change a closed select's value)
 * only picks; *Switch* or Enter switches, since switching leaves the page (WCAG 3.2.2).
 * A pick left without switching goes back to the current account.
 */
function AccountSwitch({ session }: { session: SessionView }) {
  const [picked, setPicked] = useState(session.account.id);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const select = useRef<HTMLSelectElement>(null);
  useEffect(() => setPicked(session.account.id), [session.account.id]);
  const target = session.accounts.find((a) => a.id === picked);
  const pending = target !== undefined && picked !== session.account.id;
  const switchNow = async (e?: Event) => {
    e?.preventDefault();
    if (!pending || busy) return;
    setBusy(true);
    setError(null);
    try {
      setSession(await api.switchAccount(target.id));
      navigate('/codes');
      announce(`Switched to the account ${target.name}.`);
    } catch {
      setError(`Could not switch to ${target.name}. Try again.`);
    } finally {
      setBusy(false);
      // The Switch button goes once switched: were the page not to change (switched on the
      // codes list), the focus would fall to the page; it comes back to the list instead.
      setTimeout(() => {
        if ((document.activeElement === null || document.activeElement === document.body) && select.current?.isConnected)
          select.current.focus();
      }, 0);
    }
  };
  const onFocusOut = (e: JSX.TargetedFocusEvent<HTMLFormElement>) => {
    const to = e.relatedTarget;
    if (!busy && !(to instanceof Node && e.currentTarget.contains(to))) setPicked(session.account.id);
  };
  return (
    <form class="account-switch" onSubmit={(e) => void switchNow(e)} onFocusOut={onFocusOut} aria-label="Switch account">
      <select
        ref={select}
        aria-label="Account"
        aria-describedby={error ? 'account-switch-error' : undefined}
        class="account-switch__select"
        value={picked}
        onChange={(e) => setPicked(e.currentTarget.value)}
        onKeyDown={(e) => {
          if (e.key === 'Enter') void switchNow(e);
        }}
      >
        {session.accounts.map((a) => (
          <option key={a.id} value={a.id}>
            {a.name}
          </option>
        ))}
      </select>
      {pending ? (
        <button
          type="submit"
          class="btn btn--secondary btn--compact"
          aria-disabled={busy ? 'true' : undefined}
          aria-label={`Switch to ${target.name}`}
        >
          Switch
        </button>
      ) : null}
      {error ? (
        <span class="visually-hidden" id="account-switch-error" role="alert">
          {error}
        </span>
      ) : null}
    </form>
  );
}
