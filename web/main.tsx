// The app shell: reads the session, then shows the page for the path. Public pages are
// in the first bundle (the sign-in page must load fast); the signed-in pages load on
// demand, so the studio and the dashboard can grow without slowing the sign-in.
import './styles.css';
import { type ComponentType, render } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import { onSignedOut } from './api.ts';
import { PublicLayout } from './components/layout.tsx';
import { Spinner } from './components/ui.tsx';
import { InvitePage } from './pages/invite.tsx';
import { ResetPage } from './pages/reset.tsx';
import { SetupPage } from './pages/setup.tsx';
import { SignInPage } from './pages/sign-in.tsx';
import { SignUpPage } from './pages/sign-up.tsx';
import { Link, currentPath, match, navigate, usePath } from './router.ts';
import { loadSession, sessionEnded, useAppState } from './store.ts';

type Params = Record<string, string>;
// Pages take the path's params (e.g. `id` of /codes/:id) as props, or none.
type PageComponent = ComponentType<Params>;
type Loader = () => Promise<{ default: ComponentType<never> }>;

/** A page in its own chunk, fetched the first time it is shown (or asked for early with `preload`). */
function lazyPage(load: Loader): PageComponent & { preload(): Promise<unknown> } {
  let loaded: PageComponent | null = null;
  let loading: Promise<PageComponent> | null = null;
  const fetchPage = () => {
    loading ??= load().then((m) => (loaded = m.default as unknown as PageComponent));
    return loading;
  };
  function LazyPage(params: Params) {
    const [Page, setPage] = useState<PageComponent | null>(() => loaded);
    // Always through the promise: a chunk preloaded at start (the studio's) may finish loading
    // between this first render and the effect, and a check of `loaded` here would then set
    // nothing, leaving the spinner up for good.
    useEffect(() => {
      void fetchPage().then((p) => setPage(() => p));
    }, []);
    return Page ? <Page {...params} /> : <Spinner />;
  }
  return Object.assign(LazyPage, { preload: () => fetchPage() });
}

const Codes = lazyPage(() => import('./pages/codes/codes-page.tsx'));
const Transfer = lazyPage(() => import('./pages/codes/transfer-page.tsx'));
// In the studio's chunk: it is made of the studio's forms and panels, which would otherwise be
// split off into chunks of their own that the studio, opened cold, asks for one by one.
const StaticCode = lazyPage(() => import('./pages/studio/studio-page.tsx').then((m) => ({ default: m.StaticPage })));
const CreateMany = lazyPage(() => import('./pages/codes/create-many-page.tsx'));
const Studio = lazyPage(() => import('./pages/studio/studio-page.tsx'));
const Keys = lazyPage(() => import('./pages/account/keys-page.tsx'));
const Members = lazyPage(() => import('./pages/account/members-page.tsx'));
const Domains = lazyPage(() => import('./pages/account/domains-page.tsx'));
const Webhooks = lazyPage(() => import('./pages/account/webhooks-page.tsx'));
const Profile = lazyPage(() => import('./pages/account/profile-page.tsx'));
const CodeStats = lazyPage(() => import('./pages/stats/code-stats-page.tsx'));
const Overview = lazyPage(() => import('./pages/stats/overview-page.tsx'));

/** Pages that need a session; parts 2 and 3 (studio, dashboard) add theirs here. */
const PRIVATE: Array<[string, PageComponent]> = [
  ['/codes', Codes],
  // Before '/codes/:id', which would take "new" for an id.
  ['/codes/new', Studio],
  ['/codes/many', CreateMany],
  ['/codes/static', StaticCode],
  ['/codes/transfer', Transfer],
  ['/codes/:id/edit', Studio],
  ['/codes/:id', CodeStats],
  ['/overview', Overview],
  ['/account/keys', Keys],
  ['/account/members', Members],
  ['/account/domains', Domains],
  ['/account/webhooks', Webhooks],
  ['/account/profile', Profile],
];

function App() {
  const path = usePath();
  const { session } = useAppState();

  useEffect(() => onSignedOut(sessionEnded), []);

  let p: Record<string, string> | null;
  if ((p = match('/setup/:token', path))) return <SetupPage token={p.token as string} />;
  if ((p = match('/invite/:token', path))) return <InvitePage token={p.token as string} />;
  if ((p = match('/reset/:token', path))) return <ResetPage token={p.token as string} />;
  if (session === undefined)
    return (
      <PublicLayout title="Loading">
        <Spinner />
      </PublicLayout>
    );
  if (path === '/sign-in')
    return session ? <Redirect to="/codes" /> : <SignInPage next={new URLSearchParams(location.search).get('next') ?? undefined} />;
  if (path === '/sign-up') return session ? <Redirect to="/codes" /> : <SignUpPage />;
  if (!session) return <Redirect to={path === '/' ? '/sign-in' : `/sign-in?next=${encodeURIComponent(path)}`} />;
  if (path === '/') return <Redirect to="/codes" />;
  if (path === '/account') return <Redirect to={session.account.role === 'owner' ? '/account/keys' : '/account/members'} />;
  for (const [pattern, Page] of PRIVATE) {
    const params = match(pattern, path);
    // Keyed by path, so another code's page starts afresh.
    if (params) return <Page key={path} {...params} />;
  }
  return (
    <PublicLayout title="Page not found">
      <p>There is no page at this address.</p>
      <p>
        <Link href="/codes">Go to your codes</Link>
      </p>
    </PublicLayout>
  );
}

function Redirect({ to }: { to: string }) {
  useEffect(() => navigate(to, { replace: true }), [to]);
  return null;
}

const root = document.getElementById('app') as HTMLElement;
const session = loadSession();
// Opened on the studio (a link, a reload): its chunk and its renderer load beside the session
// instead of after it, one after the other: on mobile data each step is a round trip of half
// a second or more. The renderer's module is the one the studio imports later, loaded once.
// The server names these files in the page too (src/http/web-app/studio-page.ts), so they are
// on their way before this script runs.
let studio: Promise<unknown> | null = null;
if (match('/codes/new', currentPath()) || match('/codes/:id/edit', currentPath())) {
  studio = Studio.preload();
  // With the first preview drawn by the server, the renderer waits for the scan check (first-paint.ts).
  if (root.dataset.firstPaint !== 'studio') void import('./pages/studio/browser-renderer.ts');
}
// The page arrived with the studio drawn (its first preview on screen): it stays until the app
// can show the same studio over it, never a "Loading" in between.
if (root.dataset.firstPaint === 'studio' && studio !== null) {
  void Promise.all([session, studio.catch(() => undefined)]).then(() => render(<App />, root));
} else {
  render(<App />, root);
}
