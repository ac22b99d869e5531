// The two page frames: the signed-in shell (header, navigation, account switcher) and
// the narrow frame of the public pages (sign in, setup, invite, reset). Each page has
// one h1, which takes the focus when the page changes so screen readers announce it.
import type { ComponentChildren } from 'preact';
import { useEffect, useRef } from 'preact/hooks';
import { api } from '../api.ts';
import { Link, navigate, usePath } from '../router.ts';
import { setSession, useAppState } from '../store.ts';

function useTitle(title: string) {
  const h1 = useRef<HTMLHeadingElement>(null);
  useEffect(() => {
    document.title = `${title} · qrtrack`;
    h1.current?.focus({ preventScroll: true });
  }, [title]);
  return h1;
}

export function Brand() {
  return (
    <span class="brand">
      <svg viewBox="0 0 24 24" width="22" height="22" aria-hidden="true" focusable="false">
        <path fill="currentColor" d="M3 3h8v8H3zm2 2v4h4V5zm8-2h8v8h-8zm2 2v4h4V5zM3 13h8v8H3zm2 2v4h4v-4zm8-2h2v2h-2zm2 2h2v2h-2zm2-2h2v2h-2zm2 2h2v2h-2zm-4 2h2v2h-2zm2 2h2v2h-2zm2-2h2v2h-2z" />
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

export function AppLayout({ title, children, actions }: { title: string; children: ComponentChildren; actions?: ComponentChildren }) {
  const { session } = useAppState();
  const path = usePath();
  const h1 = useTitle(title);
  const signOut = async () => {
    await api.signOut().catch(() => undefined);
    setSession(null);
    navigate('/sign-in');
  };
  const switchTo = async (accountId: string) => {
    setSession(await api.switchAccount(accountId));
    navigate('/codes');
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
              <Link key={n.href} href={n.href} class="nav__link" aria-current={path === n.href || path.startsWith(`${n.href}/`) ? 'page' : undefined}>
                {n.label}
              </Link>
            ))}
          </nav>
          <div class="topbar__me">
            {session && session.accounts.length > 1 ? (
              <select aria-label="Account" class="account-switch" value={session.account.id} onChange={(e) => void switchTo(e.currentTarget.value)}>
                {session.accounts.map((a) => (
                  <option key={a.id} value={a.id}>
                    {a.name}
                  </option>
                ))}
              </select>
            ) : (
              <span class="topbar__account">{session?.account.name}</span>
            )}
            <button type="button" class="btn btn--link" onClick={signOut}>
              Sign out
            </button>
          </div>
        </div>
      </header>
      <main id="main" class="main">
        <div class="page-head">
          <h1 ref={h1} tabIndex={-1}>
            {title}
          </h1>
          {actions}
        </div>
        {children}
      </main>
    </div>
  );
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
