// A small history router for paths under /app/. Pages get their params from `match`.
import { createElement, type ComponentChildren, type JSX } from 'preact';
import { useEffect, useState } from 'preact/hooks';

export const BASE = '/app';
const listeners = new Set<() => void>();

/** The path below /app, always starting with '/'. */
export function currentPath(): string {
  const p = location.pathname.startsWith(BASE) ? location.pathname.slice(BASE.length) : location.pathname;
  return p === '' ? '/' : p;
}

/** Asks before leaving the page (e.g. unsaved changes); true lets the navigation happen. */
type LeaveGuard = () => boolean;
let leaveGuard: LeaveGuard | null = null;
let shownPath = typeof location === 'undefined' ? '/' : currentPath();

/** Installs the page's guard; returns its removal. One page at a time holds it. */
export function setLeaveGuard(guard: LeaveGuard): () => void {
  leaveGuard = guard;
  return () => {
    if (leaveGuard === guard) leaveGuard = null;
  };
}

/** `state` is handed to the page shown next, once: see takeNavigationState. */
export function navigate(to: string, opts: { replace?: boolean; force?: boolean; state?: unknown } = {}): void {
  if (!opts.force && leaveGuard && to !== shownPath && !leaveGuard()) return;
  shownPath = to.split('?')[0] ?? to;
  if (opts.replace) history.replaceState(opts.state ?? null, '', BASE + to);
  else history.pushState(opts.state ?? null, '', BASE + to);
  for (const l of listeners) l();
}

/**
 * The state the navigation to this page passed, read once: it is cleared from the history
 * entry, so a reload or a Back to the page does not see it again.
 */
export function takeNavigationState(): unknown {
  const state: unknown = history.state;
  if (state !== null) history.replaceState(null, '', location.href);
  return state;
}

/** A part of the address, kept current on in-app navigation and Back/Forward. */
function useAddress(read: () => string): string {
  const [value, setValue] = useState(read);
  useEffect(() => {
    const update = () => setValue(read());
    const back = () => {
      // The browser has already moved; a refused leave puts the page's address back.
      if (leaveGuard && currentPath() !== shownPath && !leaveGuard()) {
        history.pushState(null, '', BASE + shownPath);
        return;
      }
      shownPath = currentPath();
      update();
    };
    listeners.add(update);
    addEventListener('popstate', back);
    // A navigation between the render and this subscription (a child's Redirect runs its
    // effect first) would otherwise be missed.
    update();
    return () => {
      listeners.delete(update);
      removeEventListener('popstate', back);
    };
  }, []);
  return value;
}

export function usePath(): string {
  return useAddress(currentPath);
}

/** The query string of the address (e.g. a list's filters). */
export function useSearch(): string {
  return useAddress(() => location.search);
}

/** '/invite/:token' against '/invite/abc' → { token: 'abc' }; null when it does not match. */
export function match(pattern: string, path: string): Record<string, string> | null {
  const ps = pattern.split('/').filter(Boolean);
  const xs = path.split('/').filter(Boolean);
  if (ps.length !== xs.length) return null;
  const params: Record<string, string> = {};
  for (let i = 0; i < ps.length; i++) {
    const p = ps[i] as string;
    const x = xs[i] as string;
    if (p.startsWith(':')) params[p.slice(1)] = decodeURIComponent(x);
    else if (p !== x) return null;
  }
  return params;
}

type LinkProps = Omit<JSX.HTMLAttributes<HTMLAnchorElement>, 'href'> & { href: string; children: ComponentChildren };

/** An in-app link: a real <a href> (so it opens in a new tab), handled without a reload. */
export function Link({ href, children, ...rest }: LinkProps) {
  const onClick = (e: MouseEvent) => {
    if (e.defaultPrevented || e.button !== 0 || e.metaKey || e.ctrlKey || e.shiftKey || e.altKey) return;
    e.preventDefault();
    navigate(href);
  };
  return createElement('a', { ...rest, href: BASE + href, onClick }, children);
}
