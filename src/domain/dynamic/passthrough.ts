// Query passthrough: the visitor's query string and the item's fixed UTM parameters merged onto
// the chosen destination. Only the query string ever changes. Scheme, credentials, host, path
// and fragment are copied from the destination as stored (an href the WHATWG parser already
// normalised), and everything taken from the visitor is decoded and re-encoded as form data,
// so no `#`, `?`, `/`, `@`, CR or LF of theirs reaches the Location header unescaped.
import { PAYLOAD_MAX_LENGTH } from '../payload/checks.ts';
import { UTM_FIELDS, type Utm } from './rules-schema.ts';

/** The visitor's query beyond this is dropped (at a parameter boundary): real links are far shorter. */
export const MAX_FORWARDED_QUERY = 2048;

/**
 * The raw query string as the visitor sent it (`?` optional), cut to MAX_FORWARDED_QUERY
 * at the last whole parameter; a `#` and what follows is never part of a query.
 */
export function capQuery(raw: string): string {
  let q = raw.charCodeAt(0) === 63 /* ? */ ? raw.slice(1) : raw;
  const hash = q.indexOf('#');
  if (hash !== -1) q = q.slice(0, hash);
  if (q.length > MAX_FORWARDED_QUERY) {
    const cut = q.lastIndexOf('&', MAX_FORWARDED_QUERY);
    q = cut === -1 ? '' : q.slice(0, cut);
  }
  return q;
}

/**
 * `destination` with the visitor's query (when `forwardQuery`) and `utm` merged in.
 *
 * Precedence, per parameter name: the visitor's value > the item's `utm` > the destination's
 * own. The visitor wins as the product says (a link that carries its own `utm_source` was made
 * for that channel on purpose); `utm` beats the destination because the owner set it on the
 * item as the rule for every scan. A replaced name loses all its values in the destination;
 * every other parameter of the destination is kept byte for byte, in order, followed by the
 * visitor's and then the utm ones.
 *
 * Costs nothing when there is nothing to add (no query, no utm): the destination comes back as
 * is, unparsed. Destinations other than http(s) (mailto:) come back unchanged. A result longer
 * than the payload maximum drops the visitor's part, then the utm part.
 */
export function withQuery(destination: string, visitorQuery: string, forwardQuery: boolean, utm: Utm | null): string {
  const forwarded = forwardQuery && visitorQuery !== '' ? capQuery(visitorQuery) : '';
  if ((forwarded === '' && utm === null) || !isHttp(destination)) return destination;
  const visitor = forwarded === '' ? null : new URLSearchParams(forwarded);
  const merged = merge(destination, visitor, utm);
  if (merged.length <= PAYLOAD_MAX_LENGTH) return merged;
  if (visitor !== null) {
    const utmOnly = merge(destination, null, utm);
    if (utmOnly.length <= PAYLOAD_MAX_LENGTH) return utmOnly;
  }
  return destination;
}

function merge(destination: string, visitor: URLSearchParams | null, utm: Utm | null): string {
  const added = new URLSearchParams();
  if (visitor !== null) for (const [k, v] of visitor) added.append(k, v);
  if (utm !== null) {
    for (const field of UTM_FIELDS) {
      const value = utm[field];
      const key = `utm_${field}`;
      if (value !== undefined && value !== '' && !visitor?.has(key)) added.append(key, value);
    }
  }
  const addedQuery = added.toString();
  if (addedQuery === '') return destination;

  const hashAt = destination.indexOf('#');
  const fragment = hashAt === -1 ? '' : destination.slice(hashAt);
  const beforeHash = hashAt === -1 ? destination : destination.slice(0, hashAt);
  const queryAt = beforeHash.indexOf('?');
  const base = queryAt === -1 ? beforeHash : beforeHash.slice(0, queryAt);
  const own = queryAt === -1 ? '' : beforeHash.slice(queryAt + 1);

  const replaced = new Set(added.keys());
  const kept = own === '' ? [] : own.split('&').filter((segment) => segment !== '' && !replaced.has(formKey(segment)));
  kept.push(addedQuery);
  return `${base}?${kept.join('&')}${fragment}`;
}

/** The decoded name of one `name=value` segment, as URLSearchParams would read it. */
function formKey(segment: string): string {
  const eq = segment.indexOf('=');
  const raw = (eq === -1 ? segment : segment.slice(0, eq)).replace(/\+/g, ' ');
  try {
    return decodeURIComponent(raw);
  } catch {
    return raw;
  }
}

/** Stored destinations are WHATWG hrefs, so their scheme is lower-case. */
function isHttp(destination: string): boolean {
  return destination.startsWith('https://') || destination.startsWith('http://');
}
