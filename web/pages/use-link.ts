// One-time link pages first check their token, so a spent or expired link says so at once.
import { useEffect, useState } from 'preact/hooks';
import { ApiError } from '../api.ts';

export type LinkState<T> = { status: 'loading' } | { status: 'ok'; data: T } | { status: 'bad'; message: string };

export function useLinkCheck<T>(check: () => Promise<T>, deps: unknown[]): LinkState<T> {
  const [state, setState] = useState<LinkState<T>>({ status: 'loading' });
  useEffect(() => {
    let live = true;
    check().then(
      (data) => live && setState({ status: 'ok', data }),
      (err: unknown) =>
        live && setState({ status: 'bad', message: err instanceof ApiError ? err.message : 'This link cannot be checked right now.' }),
    );
    return () => {
      live = false;
    };
  }, deps);
  return state;
}
