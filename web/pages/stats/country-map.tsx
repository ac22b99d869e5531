// A world map of scans by country, from a map bundled with the app (nothing is fetched from
// elsewhere). Its shapes load on first show; countries are shaded in five steps of their
// share of the busiest country, with the count in each country's tooltip.
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
        <p class="loading" role="status">Loading the map…</p>
      ) : (
        <svg class="map" viewBox={`0 0 ${mod.MAP_WIDTH} ${mod.MAP_HEIGHT}`} role="img" aria-label={`World map: ${byCountry.size} ${byCountry.size === 1 ? 'country' : 'countries'} with scans in this range`}>
          <path class="map__sphere" d={mod.spherePath()} />
          {mod.countryShapes().map((s, i) => {
            const scans = s.alpha2 ? (byCountry.get(s.alpha2) ?? 0) : 0;
            return (
              <path key={`${s.alpha2 ?? 'x'}-${i}`} d={s.d} class={`map__country map__l${level(scans, max)}`} data-country={s.alpha2 ?? undefined} data-scans={scans || undefined}>
                <title>{`${s.alpha2 ? countryName(s.alpha2) : s.name}: ${formatCount(scans)} ${scans === 1 ? 'scan' : 'scans'}`}</title>
              </path>
            );
          })}
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
