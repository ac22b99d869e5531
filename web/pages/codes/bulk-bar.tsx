// What can be done to the selected codes at once. Shown only while some are selected.
// The count and "Clear selection" share a line, so on a phone the bar (which sticks to the
// top of the window) stays two rows high.
import { useLayoutEffect, useRef } from 'preact/hooks';

export function BulkBar({
  count,
  busy,
  onAction,
  onClear,
}: {
  count: number;
  busy: boolean;
  onAction: (a: 'pause' | 'resume' | 'delete' | 'tag') => void;
  onClear: () => void;
}) {
  if (count === 0) return null;
  return <Bar count={count} busy={busy} onAction={onAction} onClear={onClear} />;
}

/**
 * While the bar sticks to the top of the window, the page keeps that much room at the top
 * when it scrolls a focused control into view (scroll-padding-top), so Shift+Tab never puts
 * the focus under the bar (WCAG 2.4.11). Measured, not a constant: the bar takes two rows on
 * a phone, and more with large text or zoom.
 */
function useScrollRoomAbove(bar: { current: HTMLElement | null }): void {
  useLayoutEffect(() => {
    const el = bar.current;
    if (!el) return;
    const root = document.documentElement;
    const fitPadding = () => {
      const top = parseFloat(getComputedStyle(el).top) || 0;
      root.style.scrollPaddingTop = `${Math.ceil(top + el.offsetHeight + 8)}px`;
    };
    fitPadding();
    const watch = new ResizeObserver(fitPadding);
    watch.observe(el);
    return () => {
      watch.disconnect();
      root.style.scrollPaddingTop = '';
    };
  }, []);
}

function Bar({
  count,
  busy,
  onAction,
  onClear,
}: {
  count: number;
  busy: boolean;
  onAction: (a: 'pause' | 'resume' | 'delete' | 'tag') => void;
  onClear: () => void;
}) {
  const bar = useRef<HTMLDivElement>(null);
  useScrollRoomAbove(bar);
  return (
    <div class="bulk-bar" role="region" aria-label="Selected codes" ref={bar}>
      <div class="bulk-bar__head">
        <span class="bulk-bar__count">{count === 1 ? '1 code selected' : `${count} codes selected`}</span>
        <button type="button" class="btn btn--link bulk-bar__clear" onClick={onClear}>
          Clear selection
        </button>
      </div>
      <div class="bulk-bar__actions">
        <button type="button" class="btn btn--secondary" disabled={busy} onClick={() => onAction('pause')}>
          Pause
        </button>
        <button type="button" class="btn btn--secondary" disabled={busy} onClick={() => onAction('resume')}>
          Resume
        </button>
        <button type="button" class="btn btn--secondary" disabled={busy} onClick={() => onAction('tag')}>
          Tags…
        </button>
        <button type="button" class="btn btn--danger" disabled={busy} onClick={() => onAction('delete')}>
          Delete…
        </button>
      </div>
    </div>
  );
}
