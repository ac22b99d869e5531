// One polite live region for the whole app. It is in the document from the start and never
// re-created, so screen readers hear every message written into it; a region inserted
// together with its text (a notice rendered with role="status") is often skipped.
import { useEffect, useRef, useState } from 'preact/hooks';

const REGION_ID = 'announcer';
/** Long enough for a screen reader to see the region emptied before the new text. */
const REWRITE_MS = 80;
let pending: ReturnType<typeof setTimeout> | undefined;

function region(): HTMLElement {
  let el = document.getElementById(REGION_ID);
  if (!el) {
    el = document.createElement('div');
    el.id = REGION_ID;
    el.className = 'visually-hidden';
    el.setAttribute('aria-live', 'polite');
    el.setAttribute('aria-atomic', 'true');
    document.body.append(el);
  }
  return el;
}
// Made when the app starts, so the first message is a change to a region already there.
if (typeof document !== 'undefined') region();

/**
 * Says `text` once, politely. The region is emptied first, so the same message said twice
 * (e.g. "Saved." after each save) is heard twice; a message said right after another
 * replaces it.
 */
export function announce(text: string): void {
  const el = region();
  clearTimeout(pending);
  el.textContent = '';
  pending = setTimeout(() => {
    el.textContent = text;
  }, REWRITE_MS);
}

/**
 * Moves the focus after the next render: `focusLater(() => el)` from an event handler or
 * after an await, when the element to focus is only rendered by the state just set.
 */
export function useFocusLater(): (target: () => HTMLElement | null | undefined) => void {
  const [request, setRequest] = useState<{ target: () => HTMLElement | null | undefined } | null>(null);
  const done = useRef<object | null>(null);
  useEffect(() => {
    if (!request || done.current === request) return;
    done.current = request;
    request.target()?.focus();
  }, [request]);
  return (target) => setRequest({ target });
}

/** An element found by id, for focusLater. */
export const byId = (id: string) => () => document.getElementById(id);
