// Search (debounced, so the list is asked once a pause in typing) and the filters: kind,
// status (active, paused, scheduled, expired, at its scan limit) and tag. Each change goes to
// the address; the list follows the address.
import type { ComponentChildren } from 'preact';
import { useEffect, useRef, useState } from 'preact/hooks';
import type { TagCount } from '../../api.ts';
import { type CodeStatus, STATUSES } from '../../item-lifecycle.ts';
import { type CodesQuery, KINDS, isFiltered, parseQuery, queryString, showQuery } from './codes-query.ts';

const SEARCH_DELAY_MS = 300;
/**
 * How long a filter chosen with the arrow keys on a closed select waits before it applies:
 * long enough to hear an option's name and press the next arrow, short enough to feel like
 * a choice. Enter or leaving the select applies it at once.
 */
const KEY_SETTLE_MS = 1000;
/** Keys that change a closed select's value in place (Chromium and Firefox on Windows and Linux). */
const STEPPING_KEY = /^(Arrow(Up|Down|Left|Right)|Home|End|Page(Up|Down)|.)$/u;

export function CodesFilters({ query, tags }: { query: CodesQuery; tags: TagCount[] }) {
  const [text, setText] = useState(query.q);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  /** The search this box last put in the address; null until a search is typed. */
  const typed = useRef<string | null>(null);
  // Back/forward or a cleared filter changes the address: the box shows what is searched, and
  // the next keystroke starts a search of its own.
  useEffect(() => {
    setText(query.q);
    if (query.q !== typed.current) typed.current = null;
  }, [query.q]);
  useEffect(() => () => clearTimeout(timer.current), []);

  const type = (value: string) => {
    setText(value);
    clearTimeout(timer.current);
    timer.current = setTimeout(() => {
      timer.current = undefined;
      search({ ...query, q: value });
    }, SEARCH_DELAY_MS);
  };
  // A search's first keystroke adds a history entry and the later ones replace it: Back
  // returns to the list as it was before the search, not to each prefix typed.
  const search = (q: CodesQuery) => {
    if (queryString(q) === location.search) return; // e.g. a space typed: nothing to search yet
    const replace = typed.current !== null;
    typed.current = parseQuery(queryString(q)).q;
    showQuery(q, { replace });
  };
  // The address is what is searched, unless a search is still being typed (the box follows the
  // address one render late, so it may still hold a cleared search). A filter replaces the history
  // entry: Back leaves the list for the page before it, not for each filter tried on the way.
  const set = (patch: Partial<CodesQuery>) => {
    const typing = timer.current !== undefined;
    clearTimeout(timer.current);
    timer.current = undefined;
    typed.current = null;
    showQuery({ ...query, q: typing ? text : query.q, ...patch }, { replace: true });
  };
  const clear = () => {
    clearTimeout(timer.current);
    timer.current = undefined;
    setText('');
    typed.current = null;
    showQuery({ q: '', kind: '', status: '', tag: '' });
    // The button goes with the filters: the focus goes to the search box, where a new search starts.
    document.getElementById('codes-q')?.focus();
  };

  return (
    <form
      class="filters"
      role="search"
      aria-label="Codes"
      onSubmit={(e) => {
        e.preventDefault();
        clearTimeout(timer.current);
        timer.current = undefined;
        search({ ...query, q: text });
      }}
    >
      <div class="filters__search">
        <label for="codes-q">Search</label>
        <input
          id="codes-q"
          type="search"
          value={text}
          maxLength={200}
          placeholder="Title or content"
          onInput={(e) => type(e.currentTarget.value)}
        />
      </div>
      <div class="filters__field">
        <label for="codes-kind">Kind</label>
        <FilterSelect id="codes-kind" value={query.kind} choose={(kind) => set({ kind: kind as CodesQuery['kind'] })}>
          <option value="">All kinds</option>
          {KINDS.map((k) => (
            <option key={k.value} value={k.value}>
              {k.label}
            </option>
          ))}
        </FilterSelect>
      </div>
      <div class="filters__field">
        <label for="codes-status">Status</label>
        <FilterSelect id="codes-status" value={query.status} choose={(status) => set({ status: status as CodeStatus | '' })}>
          <option value="">Any status</option>
          {STATUSES.map((s) => (
            <option key={s.value} value={s.value}>
              {s.label}
            </option>
          ))}
        </FilterSelect>
      </div>
      {tags.length > 0 || query.tag ? (
        <div class="filters__field">
          <label for="codes-tag">Tag</label>
          <FilterSelect id="codes-tag" value={query.tag} choose={(tag) => set({ tag })}>
            <option value="">Any tag</option>
            {query.tag && !tags.some((t) => t.name === query.tag) ? <option value={query.tag}>{query.tag}</option> : null}
            {tags.map((t) => (
              <option key={t.name} value={t.name}>
                {t.name} ({t.count})
              </option>
            ))}
          </FilterSelect>
        </div>
      ) : null}
      {isFiltered(query) ? (
        <button type="button" class="btn btn--link filters__clear" onClick={clear}>
          Clear filters
        </button>
      ) : null}
    </form>
  );
}

/**
 * A filter's select that applies a real choice, not each option passed on the way: a choice
 * made in the open list (mouse, touch, or Enter there) applies at once, while the arrow keys
 * on the closed select (which change its value, and fire change, at every press) apply once
 * they settle, on Enter, or when the focus leaves.
 */
function FilterSelect({
  id,
  value,
  choose,
  children,
}: {
  id: string;
  value: string;
  choose: (value: string) => void;
  children: ComponentChildren;
}) {
  /** The value stepped to with the keys and not applied yet. */
  const [pending, setPending] = useState<string | null>(null);
  const settle = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  /** Set by a stepping key and cleared after its task: the change it causes comes in between. */
  const stepping = useRef(false);
  // The timer applies with the page's newest query, not the one of the render that started it.
  const chooseNow = useRef(choose);
  chooseNow.current = choose;
  const pendingNow = useRef(pending);
  pendingNow.current = pending;
  useEffect(() => () => clearTimeout(settle.current), []);

  const apply = () => {
    clearTimeout(settle.current);
    settle.current = undefined;
    const v = pendingNow.current;
    if (v === null) return;
    setPending(null);
    pendingNow.current = null;
    chooseNow.current(v);
  };
  return (
    <select
      id={id}
      value={pending ?? value}
      onKeyDown={(e) => {
        if (e.key === 'Enter') {
          if (pendingNow.current !== null) e.preventDefault();
          apply();
        } else if (!e.altKey && !e.ctrlKey && !e.metaKey && STEPPING_KEY.test(e.key)) {
          stepping.current = true;
          setTimeout(() => (stepping.current = false));
        }
      }}
      onChange={(e) => {
        const v = e.currentTarget.value;
        if (!stepping.current) {
          clearTimeout(settle.current);
          settle.current = undefined;
          setPending(null);
          pendingNow.current = null;
          choose(v);
          return;
        }
        setPending(v);
        pendingNow.current = v;
        clearTimeout(settle.current);
        settle.current = setTimeout(apply, KEY_SETTLE_MS);
      }}
      onBlur={apply}
    >
      {children}
    </select>
  );
}
