// Search (debounced, so the list is asked once a pause in typing) and the filters: kind,
// status and tag. Each change goes to the address; the list follows the address.
import { useEffect, useRef, useState } from 'preact/hooks';
import type { TagCount } from '../../api.ts';
import { type CodesQuery, KINDS, type Status, isFiltered, parseQuery, queryString, showQuery } from './codes-query.ts';

const SEARCH_DELAY_MS = 300;

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
  // The address is what is searched, unless a search is still being typed. (The box follows
  // the address one render late: after "Clear filters" a quick choice of kind re-applied the
  // old search from the box, and the list showed nothing.)
  const set = (patch: Partial<CodesQuery>) => {
    const typing = timer.current !== undefined;
    clearTimeout(timer.current);
    timer.current = undefined;
    typed.current = null;
    showQuery({ ...query, q: typing ? text : query.q, ...patch });
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
    <form class="filters" role="search" aria-label="Codes" onSubmit={(e) => {
      e.preventDefault();
      clearTimeout(timer.current);
      timer.current = undefined;
      search({ ...query, q: text });
    }}>
      <div class="filters__search">
        <label for="codes-q">Search</label>
        <input id="codes-q" type="search" value={text} maxLength={200} placeholder="Title or content" onInput={(e) => type(e.currentTarget.value)} />
      </div>
      <div class="filters__field">
        <label for="codes-kind">Kind</label>
        <select id="codes-kind" value={query.kind} onChange={(e) => set({ kind: e.currentTarget.value as CodesQuery['kind'] })}>
          <option value="">All kinds</option>
          {KINDS.map((k) => (
            <option key={k.value} value={k.value}>
              {k.label}
            </option>
          ))}
        </select>
      </div>
      <div class="filters__field">
        <label for="codes-status">Status</label>
        <select id="codes-status" value={query.status} onChange={(e) => set({ status: e.currentTarget.value as Status | '' })}>
          <option value="">Any status</option>
          <option value="active">Active</option>
          <option value="paused">Paused</option>
        </select>
      </div>
      {tags.length > 0 || query.tag ? (
        <div class="filters__field">
          <label for="codes-tag">Tag</label>
          <select id="codes-tag" value={query.tag} onChange={(e) => set({ tag: e.currentTarget.value })}>
            <option value="">Any tag</option>
            {query.tag && !tags.some((t) => t.name === query.tag) ? <option value={query.tag}>{query.tag}</option> : null}
            {tags.map((t) => (
              <option key={t.name} value={t.name}>
                {t.name} ({t.count})
              </option>
            ))}
          </select>
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
