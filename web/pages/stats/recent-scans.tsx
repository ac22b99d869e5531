// The newest human scans of a code, refreshed while the page is open: every 10 s (only
// while the tab is visible) the page asks /recent, which costs the server one row and a
// short index walk, and tells the page when the counters moved so it reloads the stats.
import { useEffect, useRef, useState } from 'preact/hooks';
import { type RecentScan, api } from '../../api.ts';
import { announce } from '../../components/announce.ts';
import { countryName } from './format.ts';

export const POLL_MS = 10_000;

const timeFormat = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'medium' });

export function RecentScans({
  id,
  initial,
  scanCount,
  onChange,
}: {
  id: string;
  initial: RecentScan[];
  scanCount: number;
  onChange: () => void;
}) {
  const [recent, setRecent] = useState(initial);
  const [checked, setChecked] = useState<Date | null>(null);
  const count = useRef(scanCount);
  useEffect(() => setRecent(initial), [initial]);
  useEffect(() => {
    count.current = scanCount;
  }, [scanCount]);
  useEffect(() => {
    const tick = async () => {
      if (document.visibilityState !== 'visible') return;
      try {
        const r = await api.recentScans(id);
        setChecked(new Date());
        if (r.scanCount !== count.current) {
          // Only news is said aloud: new scans, once, when the count moves (the time of each
          // check is shown, never announced: a screen reader would read it every 10 s).
          const added = r.scanCount - count.current;
          if (added > 0) announce(added === 1 ? '1 new scan.' : `${added} new scans.`);
          count.current = r.scanCount;
          setRecent(r.recent);
          onChange();
        }
      } catch {
        // The next tick tries again; a signed-out session is handled by the app shell.
      }
    };
    const timer = setInterval(() => void tick(), POLL_MS);
    return () => clearInterval(timer);
  }, [id]);
  return (
    <section class="card panel" aria-labelledby="recent-title">
      <h2 id="recent-title">Recent scans</h2>
      <p class="small muted">
        Updates by itself while this page is open{checked ? `; checked at ${checked.toLocaleTimeString()}` : ''}. Bots are not listed.
      </p>
      {recent.length === 0 ? (
        <p class="muted">No scans yet.</p>
      ) : (
        <div class="table-wrap">
          <table class="table recent-table">
            <caption class="visually-hidden">The newest scans, newest first</caption>
            <thead>
              <tr>
                <th scope="col">When</th>
                <th scope="col">Device</th>
                <th scope="col">OS</th>
                <th scope="col">Browser</th>
                <th scope="col">Country</th>
                <th scope="col">Referrer</th>
              </tr>
            </thead>
            <tbody>
              {recent.map((r, i) => (
                <tr key={`${r.scannedAt}-${i}`}>
                  <td data-label="When">
                    <time dateTime={r.scannedAt}>{timeFormat.format(new Date(r.scannedAt))}</time>
                  </td>
                  <td data-label="Device">{r.device}</td>
                  <td data-label="OS">{r.os ?? '–'}</td>
                  <td data-label="Browser">{r.browser ?? '–'}</td>
                  <td data-label="Country">{r.country ? countryName(r.country) : '–'}</td>
                  <td data-label="Referrer">{r.referrer ?? 'direct'}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}
