// The world map's shapes, in a chunk of its own (loaded when the map is shown): Natural
// Earth countries at 1:110m from world-atlas, projected once with d3-geo into SVG paths.
// world-atlas names countries by ISO 3166-1 numeric id; scans carry alpha-2 codes.
import { geoEqualEarth, geoPath } from 'd3-geo';
import countries from 'i18n-iso-countries';
import { feature } from 'topojson-client';
import type { GeometryCollection, Topology } from 'topojson-specification';
import world from 'world-atlas/countries-110m.json' with { type: 'json' };

export interface CountryShape {
  /** ISO 3166-1 alpha-2, or null for shapes without one (disputed areas). */
  alpha2: string | null;
  name: string;
  d: string;
}

export const MAP_WIDTH = 960;
export const MAP_HEIGHT = 470;

let shapes: CountryShape[] | null = null;

export function countryShapes(): CountryShape[] {
  if (shapes) return shapes;
  const topology = world as unknown as Topology<{ countries: GeometryCollection<{ name: string }> }>;
  const collection = feature(topology, topology.objects.countries);
  const projection = geoEqualEarth().fitExtent(
    [
      [4, 4],
      [MAP_WIDTH - 4, MAP_HEIGHT - 4],
    ],
    { type: 'Sphere' },
  );
  const path = geoPath(projection);
  shapes = collection.features
    .filter((f) => f.properties?.name !== 'Antarctica')
    .map((f) => ({
      alpha2: f.id === undefined ? null : (countries.numericToAlpha2(String(f.id)) ?? null),
      name: f.properties?.name ?? '',
      d: path(f) ?? '',
    }))
    .filter((s) => s.d !== '');
  return shapes;
}

/** The outline of the globe, for the map's background. */
export function spherePath(): string {
  const projection = geoEqualEarth().fitExtent(
    [
      [4, 4],
      [MAP_WIDTH - 4, MAP_HEIGHT - 4],
    ],
    { type: 'Sphere' },
  );
  return geoPath(projection)({ type: 'Sphere' }) ?? '';
}
