// The account's codes, newest first. A plain list for now: the studio (create and
// design) and the dashboard (stats) are built on this page later.
import { useEffect, useState } from 'preact/hooks';
import { ApiError, type QrItem, api } from '../../api.ts';
import { AppLayout } from '../../components/layout.tsx';
import { Button, Notice, Spinner, When } from '../../components/ui.tsx';
import { Link } from '../../router.ts';

export default function CodesPage() {
  const [items, setItems] = useState<QrItem[] | null>(null);
  const [cursor, setCursor] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const load = async (after?: string) => {
    setBusy(true);
    try {
      const page = await api.listCodes({ limit: 50, cursor: after });
      setItems((old) => (after && old ? [...old, ...page.items] : page.items));
      setCursor(page.nextCursor);
    } catch (err) {
      setError(err instanceof ApiError ? err.message : 'The codes could not be loaded.');
    } finally {
      setBusy(false);
    }
  };
  useEffect(() => void load(), []);

  return (
    <AppLayout title="Codes">
      {error ? <p class="form-error" role="alert">{error}</p> : null}
      {items === null ? (
        error ? null : <Spinner />
      ) : items.length === 0 ? (
        <Notice>No codes yet. Create them with the API (see the Account page for a key) — the studio comes soon.</Notice>
      ) : (
        <div class="table-wrap">
          <table class="table">
            <caption class="visually-hidden">Your QR codes, newest first</caption>
            <thead>
              <tr>
                <th scope="col">Title</th>
                <th scope="col">Short link</th>
                <th scope="col">Status</th>
                <th scope="col" class="num">Scans</th>
                <th scope="col">Created</th>
              </tr>
            </thead>
            <tbody>
              {items.map((it) => (
                <tr key={it.id}>
                  <td data-label="Title">
                    <Link href={`/codes/${it.id}`}>
                      {it.title}
                    </Link>
                  </td>
                  <td data-label="Short link">
                    <code>{it.shortUrl.replace(/^https?:\/\//, '')}</code>
                  </td>
                  <td data-label="Status">{it.active ? 'Active' : 'Paused'}</td>
                  <td data-label="Scans" class="num">
                    {it.scanCount}
                  </td>
                  <td data-label="Created">
                    <When iso={it.createdAt} />
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {cursor ? (
        <Button variant="secondary" busy={busy} onClick={() => void load(cursor)}>
          Show more
        </Button>
      ) : null}
    </AppLayout>
  );
}
