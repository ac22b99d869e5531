// The code itself at the top of its dashboard: its image as the server draws it, its short
// link and where it leads, so nobody has to open the studio to see what was printed.
import { type QrItem, api } from '../../api.ts';
import { kindLabel } from '../codes/codes-query.ts';

/** The kinds whose short link sends the visitor on; the others show a page of their own. */
const REDIRECTS: ReadonlySet<string> = new Set(['url', 'whatsapp', 'email']);

export function CodeCard({ item }: { item: QrItem }) {
  const redirects = REDIRECTS.has(item.contentType);
  const web = /^https?:\/\//i.test(item.payload);
  return (
    <section class="card code-card" aria-labelledby="code-card-h">
      <img
        class="code-card__img"
        src={api.codeThumbnailUrl(item.id, item.updatedAt)}
        alt={`QR code of “${item.title}”`}
        width={112}
        height={112}
      />
      <div class="code-card__text">
        <h2 id="code-card-h" class="visually-hidden">
          The code
        </h2>
        <p>
          <span class="muted">Short link:</span> <code>{item.shortUrl}</code>
        </p>
        <p>
          <span class="muted">{redirects ? 'Leads to:' : `${kindLabel(item.contentType)}, its page shows:`}</span>{' '}
          {web ? (
            <a href={item.payload} rel="noopener noreferrer" id="code-destination">
              {item.payload}
            </a>
          ) : (
            <code id="code-destination">{item.payload}</code>
          )}
        </p>
        {item.rules.length > 0 ? (
          <p class="small muted">
            {item.rules.length === 1 ? 'One rule may send visitors elsewhere.' : `${item.rules.length} rules may send visitors elsewhere.`}
          </p>
        ) : null}
      </div>
    </section>
  );
}
