// A code's status as a small coloured label, the same on the codes list and the dashboard.
import type { QrItem } from '../api.ts';
import { statusText } from '../item-lifecycle.ts';
import './status-badge.css';

export function StatusBadge({ item }: { item: QrItem }) {
  const { text, sub, detail } = statusText(item);
  return (
    <span class={`status status--${item.status}`} data-status={item.status} title={detail}>
      <span class="status__part">{text}</span>
      {sub ? (
        <>
          {' '}
          <span class="status__part">{sub}</span>
        </>
      ) : null}
    </span>
  );
}

/** Small marks for what a visitor meets before the destination: a password, rules. */
export function BehaviourFlags({ item }: { item: QrItem }) {
  const rules = item.rules.length;
  if (!item.hasPassword && rules === 0) return null;
  return (
    <>
      {item.hasPassword ? (
        <span class="flag" data-flag="password" title="Visitors type a password before they go on">
          Password
        </span>
      ) : null}
      {rules > 0 ? (
        <span class="flag" data-flag="rules" title="Visitors may be sent to different destinations">
          {rules === 1 ? '1 rule' : `${rules} rules`}
        </span>
      ) : null}
    </>
  );
}
