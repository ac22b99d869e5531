// A world map of scans by country, from a map bundled with the app (nothing is fetched from
// elsewhere). Its shapes load on first show; countries are shaded in five steps of their
// share of the busiest country, with the count in each country's tooltip. To a screen reader
// the map is one image whose name says where most scans came from; its 176 shapes are hidden
// (each would be read as "Fiji: 0 scans"), and the country list beside it has every number.
import { useEffect, useState } from 'preact/hooks';
import { countryName, formatCount } from './format.ts';
import type { BreakdownRow } from './breakdown-list.tsx';

type Shapes = typeof import('./world-shapes.ts');

/** 1..5 by share of the maximum, 0 for none. */
function level(scans: number, max: number): number {
  if (scans <= 0 || max <= 0) return 0;
  return Math.min(5, Math.ceil((scans / max) * 5));
}

export function CountryMap({ rows }: { rows: BreakdownRow[] }) {
  const [mod, setMod] = useState<Shapes | null>(null);
  const [failed, setFailed] = useState(false);
  useEffect(() => {
    import('./world-shapes.ts').then(setMod, () => setFailed(true));
  }, []);
  const byCountry = new Map(rows.filter((r) => r.value !== 'unknown').map((r) => [r.value, r.scans]));
  const max = Math.max(0, ...byCountry.values());
  return (
    <section class="card panel map-panel" aria-labelledby="map-title">
      <h2 id="map-title">Where scans came from</h2>
      {failed ? (
        <p class="muted">The map could not be loaded; the countries are listed beside it.</p>
      ) : !mod ? (
        <p class="loading" role="status">
          Loading the map…
        </p>
      ) : (
        <svg class="map" viewBox={`0 0 ${mod.MAP_WIDTH} ${mod.MAP_HEIGHT}`} role="img" aria-label={mapSummary(byCountry)}>
          <g aria-hidden="true">
            <path class="map__sphere" d={mod.spherePath()} />
            {mod.countryShapes().map((s, i) => {
              const scans = s.alpha2 ? (byCountry.get(s.alpha2) ?? 0) : 0;
              return (
                <path
                  key={`${s.alpha2 ?? 'x'}-${i}`}
                  d={s.d}
                  class={`map__country map__l${level(scans, max)}`}
                  data-country={s.alpha2 ?? undefined}
                  data-scans={scans || undefined}
                >
                  <title>{`${s.alpha2 ? countryName(s.alpha2) : s.name}: ${formatCount(scans)} ${scans === 1 ? 'scan' : 'scans'}`}</title>
                </path>
              );
            })}
          </g>
        </svg>
      )}
      {max === 0 ? (
        // An empty map says nothing on its own: say why it is empty.
        <p class="small muted map__empty">
          {rows.some((r) => r.scans > 0)
            ? 'No scan in this range has a known country (scans from local or private addresses have none).'
            : 'No scans in this range.'}
        </p>
      ) : (
        <p class="map__legend small muted" aria-hidden="true">
          <span>fewer</span>
          {[1, 2, 3, 4, 5].map((l) => (
            <span key={l} class={`map__swatch map__l${l}`} />
          ))}
          <span>more scans</span>
        </p>
      )}
    </section>
  );
}

/** The map's one text alternative: "World map of scans: most from Germany (3), then United States (2) and France (1)." */
export function mapSummary(byCountry: Map<string, number>): string {
  const known = [...byCountry].filter(([, n]) => n > 0).sort((a, b) => b[1] - a[1]);
  if (known.length === 0) return 'World map of scans: no country to show in this range.';
  const named = known.slice(0, 3).map(([c, n]) => `${countryName(c)} (${formatCount(n)})`);
  const rest = known.length - named.length;
  const list =
    named.length === 1
      ? `all from ${named[0]}`
      : `most from ${named[0]}, then ${named.slice(1).join(' and ')}${rest > 0 ? `, and ${rest} more ${rest === 1 ? 'country' : 'countries'}` : ''}`;
  return `World map of scans: ${list}. Every country is in the Countries list.`;
}
