import type { QrItem } from '../../api.ts';

/** A stored code's short link, whether it is active, and where it leads (as the draft has it now). */
export function LinkSummary({ item, payload }: { item: QrItem | null; payload: string | null }) {
  if (!item) return null;
  return (
    <section class="card link-summary" aria-labelledby="link-h">
      <h2 id="link-h">Short link</h2>
      <p>
        <code id="short-url">{item.shortUrl}</code> {item.active ? <span class="badge">Active</span> : <span class="badge">Paused</span>}
      </p>
      <p>
        <span class="muted">Leads to:</span> <code>{payload ?? item.payload}</code>
      </p>
    </section>
  );
}
