// The last save's result (the server's warnings), shown above the studio and said aloud. A
// create moves to the new code's edit page: its result travels in the history entry's state,
// read once, so a reload or a Back to the page does not show it again.
import { useEffect, useRef, useState } from 'preact/hooks';
import type { QrItem } from '../../api.ts';
import { announce } from '../../components/announce.ts';
import { navigate, takeNavigationState } from '../../router.ts';

/** What a save says aloud: the server's warnings in full, since they are far from the button on a phone. */
export function savedMessage(what: 'Created' | 'Saved', warnings: string[]): string {
  return warnings.length ? `${what}, with warnings from the server: ${warnings.join(' ')}` : `${what}.`;
}

/** Shows the code just created in the studio, with the result of its create. */
export function openCreatedCode(id: string, warnings: string[]): void {
  navigate(`/codes/${id}/edit`, { replace: true, force: true, state: { createdWarnings: warnings } });
}

function takeCreatedWarnings(): string[] | null {
  const state = takeNavigationState();
  const warnings = typeof state === 'object' && state !== null ? (state as { createdWarnings?: unknown }).createdWarnings : undefined;
  return Array.isArray(warnings) && warnings.every((w) => typeof w === 'string') ? warnings : null;
}

/** The warnings of the last save (null before any); a code just created says its result once the page has its heading (`item` loaded). */
export function useSaveResult(item: QrItem | null): [string[] | null, (warnings: string[]) => void] {
  const [warnings, setWarnings] = useState<string[] | null>(takeCreatedWarnings);
  const created = useRef(warnings !== null);
  useEffect(() => {
    if (!created.current || item === null || warnings === null) return;
    created.current = false;
    announce(savedMessage('Created', warnings));
  }, [item]);
  return [warnings, setWarnings];
}
