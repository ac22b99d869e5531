// The row of content tabs (WAI-ARIA tabs). On a phone the six tabs do not fit: the row
// scrolls sideways, keeps the selected tab in view (an existing Email code opened with it
// scrolled away), and fades the edge that has more tabs beyond it.
import { useEffect, useLayoutEffect, useRef, useState } from 'preact/hooks';
import type { ContentType } from '../../../src/domain/payload/index.ts';
import { KINDS } from './content-model.ts';

/** Room left beside a revealed tab, so the edge's fade does not cover it. */
const EDGE_PX = 24;

export function KindTabs({ kind, onSelect, readOnly }: { kind: ContentType; onSelect: (kind: ContentType) => void; readOnly: boolean }) {
  const row = useRef<HTMLDivElement>(null);
  const [more, setMore] = useState('');

  useLayoutEffect(() => {
    if (row.current) revealSelected(row.current);
  }, [kind]);

  useEffect(() => {
    const el = row.current;
    if (!el) return;
    const measure = () => {
      const start = el.scrollLeft > 1;
      const end = el.scrollLeft + el.clientWidth < el.scrollWidth - 1;
      setMore([start ? 'start' : '', end ? 'end' : ''].filter(Boolean).join(' '));
    };
    measure();
    el.addEventListener('scroll', measure, { passive: true });
    // A turned phone or a resized window moves the tabs: the selected one stays in view.
    const resize = new ResizeObserver(() => (revealSelected(el), measure()));
    resize.observe(el);
    return () => {
      el.removeEventListener('scroll', measure);
      resize.disconnect();
    };
  }, []);

  const onKey = (e: KeyboardEvent, i: number) => {
    // The WAI-ARIA tabs pattern: the arrows move to the next or previous tab (round the
    // ends), Home and End to the first and last; Tab goes into the panel.
    const to =
      e.key === 'ArrowRight'
        ? (i + 1) % KINDS.length
        : e.key === 'ArrowLeft'
          ? (i - 1 + KINDS.length) % KINDS.length
          : e.key === 'Home'
            ? 0
            : e.key === 'End'
              ? KINDS.length - 1
              : null;
    if (to === null || readOnly) return;
    e.preventDefault();
    const next = KINDS[to]!;
    onSelect(next.kind);
    document.getElementById(`tab-${next.kind}`)?.focus({ preventScroll: true });
  };

  return (
    <div class="kind-tabs-frame" data-more={more}>
      <div class="kind-tabs" role="tablist" aria-label="What the code holds" ref={row}>
        {KINDS.map((k, i) => (
          <button
            key={k.kind}
            id={`tab-${k.kind}`}
            type="button"
            role="tab"
            class="kind-tabs__tab"
            aria-selected={kind === k.kind ? 'true' : 'false'}
            aria-controls="content-panel"
            tabIndex={kind === k.kind ? 0 : -1}
            disabled={readOnly && kind !== k.kind}
            onClick={() => onSelect(k.kind)}
            onKeyDown={(e) => onKey(e, i)}
          >
            {k.label}
          </button>
        ))}
      </div>
    </div>
  );
}

/** Scrolls the row itself, never the page (scrollIntoView would pull the page down to the tabs when the studio opens). */
function revealSelected(row: HTMLElement): void {
  const tab = row.querySelector<HTMLElement>('[aria-selected="true"]');
  if (!tab) return;
  const r = row.getBoundingClientRect();
  const t = tab.getBoundingClientRect();
  if (t.left < r.left) row.scrollLeft -= r.left - t.left + EDGE_PX;
  else if (t.right > r.right) row.scrollLeft += t.right - r.right + EDGE_PX;
}
