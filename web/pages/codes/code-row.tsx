// One code in the list: a table row on wide screens, a card on narrow ones (codes.css).
// Edit controls are left out entirely for a role that cannot write: it gets a link to the code's
// design and downloads instead.
import { type QrItem, api } from '../../api.ts';
import { BehaviourFlags, StatusBadge } from '../../components/status-badge.tsx';
import { Link } from '../../router.ts';
import { formatCount } from '../stats/format.ts';
import { CopyLink } from './copy-link.tsx';
import { kindLabel } from './codes-query.ts';
import { Sparkline } from './sparkline.tsx';

export interface RowActions {
  selected: boolean;
  busy: boolean;
  onSelect(selected: boolean): void;
  onToggleActive(): void;
  onDelete(): void;
}

export function CodeRow({
  item,
  scans,
  days,
  actions,
}: {
  item: QrItem;
  scans: number[] | undefined;
  days: { from: string; to: string } | null;
  actions: RowActions | null;
}) {
  return (
    <tr class={`code-row${item.status === 'active' ? '' : ' code-row--paused'}`} data-id={item.id} data-code={item.code}>
      {actions ? (
        <td class="code-row__sel">
          {/* The label around the box is its finger-sized hit area on a phone (codes.css). */}
          <label class="code-row__hit">
            <input
              type="checkbox"
              checked={actions.selected}
              onChange={(e) => actions.onSelect(e.currentTarget.checked)}
              aria-label={`Select ${item.title}`}
            />
          </label>
        </td>
      ) : null}
      <td class="code-row__thumb">
        <img src={api.codeThumbnailUrl(item.id, item.updatedAt)} alt="" width={56} height={56} loading="lazy" decoding="async" />
      </td>
      <td class="code-row__title">
        <Link href={`/codes/${item.id}`} class="code-row__name">
          {item.title}
        </Link>
        <span class="code-row__meta">
          <span class="code-row__kind">{kindLabel(item.contentType)}</span>
          {item.tags.map((t) => (
            <span key={t} class="tag">
              {t}
            </span>
          ))}
          <BehaviourFlags item={item} />
        </span>
      </td>
      <td class="code-row__link">
        <CopyLink url={item.shortUrl} title={item.title} id={item.id} />
      </td>
      <td class="code-row__status">
        <StatusBadge item={item} />
      </td>
      <td class="code-row__scans num" data-total={item.scanCount}>
        {formatCount(item.scanCount)}
        <span class="code-row__unit"> {item.scanCount === 1 ? 'scan' : 'scans'}</span>
      </td>
      <td class="code-row__spark">{days ? <Sparkline scans={scans} from={days.from} to={days.to} /> : null}</td>
      {actions ? (
        <td class="code-row__actions">
          <button
            type="button"
            class="btn btn--secondary btn--small"
            disabled={actions.busy}
            onClick={actions.onToggleActive}
            aria-label={`${item.active ? 'Pause' : 'Resume'} ${item.title}`}
          >
            {item.active ? 'Pause' : 'Resume'}
          </button>
          <Link href={`/codes/${item.id}/edit`} class="btn btn--secondary btn--small" aria-label={`Edit ${item.title}`}>
            Edit
          </Link>
          <button
            type="button"
            class="btn btn--secondary btn--small btn--danger-text"
            disabled={actions.busy}
            onClick={actions.onDelete}
            aria-label={`Delete ${item.title}`}
          >
            Delete
          </button>
        </td>
      ) : (
        <td class="code-row__actions">
          {/* A viewer's way to the code's design and downloads (the studio, read-only). */}
          <Link href={`/codes/${item.id}/edit`} class="btn btn--secondary btn--small" aria-label={`View & download ${item.title}`}>
            View & download
          </Link>
        </td>
      )}
    </tr>
  );
}
