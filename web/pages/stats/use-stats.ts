// Loading a stats answer for the chosen range, at the browser's time zone, and keeping
// it while the next range loads (so the page does not jump).
import { useEffect, useState } from 'preact/hooks';
import { ApiError } from '../../api.ts';

export const RANGES = [7, 14, 30, 90] as const;
export type Range = (typeof RANGES)[number];

/** The browser's IANA zone: the API cuts days at its midnight. */
export function browserTimeZone(): string {
  return Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';
}

export function useStats<T>(load: (days: Range, tz: string) => Promise<T>, days: Range, refresh: number) {
  const [data, setData] = useState<T | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(true);
  useEffect(() => {
    let live = true;
    setBusy(true);
    load(days, browserTimeZone())
      .then((d) => {
        if (!live) return;
        setData(d);
        setError(null);
      })
      .catch((err: unknown) => {
        if (live) setError(err instanceof ApiError ? err.message : 'The statistics could not be loaded.');
      })
      .finally(() => {
        if (live) setBusy(false);
      });
    return () => {
      live = false;
    };
  }, [days, refresh]);
  return { data, error, busy };
}
