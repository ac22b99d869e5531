// Schemas of the account overview, the CSV exports and the live poll of recent scans.
// Kept beside qr-items.ts (the item stats) so each stats route reads its schemas in one place.
import { Type } from 'typebox';
import { Enum, named } from '../../domain/schema-kit.ts';
import { StatsQuery, StatsResponse, TabAccountQuery } from './qr-items.ts';

const Count = Type.Integer({ minimum: 0 });

const daysProperty = StatsQuery.properties.days;
const tzProperty = StatsQuery.properties.tz;

export const AccountStatsQuery = Type.Object(
  {
    days: daysProperty,
    tz: tzProperty,
    top: Type.Optional(
      Type.Integer({
        minimum: 1,
        maximum: 100,
        rule: 'must be an integer between 1 and 100',
        description: 'How many top codes, default 10',
      }),
    ),
  },
  { additionalProperties: false },
);

export const TopCode = named(
  'TopCode',
  Type.Object({
    id: Type.String({ format: 'uuid' }),
    code: Type.String(),
    title: Type.String(),
    active: Type.Boolean(),
    scans: Type.Integer({ minimum: 0, description: 'Human scans in the range' }),
    uniqueScans: Type.Integer({ minimum: 0, description: 'Unique scans in the range' }),
  }),
);

export const AccountStatsResponse = named(
  'AccountStats',
  Type.Object({
    days: Type.Integer(),
    tz: Type.String(),
    from: Type.String({ format: 'date' }),
    to: Type.String({ format: 'date' }),
    totals: Type.Object({
      codes: Type.Integer({ minimum: 0, description: 'Live (not deleted) codes of the account' }),
      scansInRange: Count,
      uniqueScansInRange: Type.Integer({ minimum: 0, description: "Sum of each code's unique scans: a visitor of two codes counts twice" }),
      botScansInRange: Count,
    }),
    daily: StatsResponse.properties.daily,
    topCodes: Type.Array(TopCode, {
      description: 'Live codes with the most scans in the range, most first (ties by id); codes without scans are left out',
    }),
    breakdown: StatsResponse.properties.breakdown,
  }),
);

const csvPart = <const Parts extends string[]>(parts: readonly [...Parts], description: string) => Type.Optional(Enum(parts, description));

export const ItemStatsCsvQuery = Type.Object(
  {
    days: daysProperty,
    tz: tzProperty,
    part: csvPart(['daily', 'breakdown'], 'daily: date,scans,unique_scans (default); breakdown: dimension,value,scans'),
    account: TabAccountQuery,
  },
  { additionalProperties: false },
);

export const AccountStatsCsvQuery = Type.Object(
  {
    days: daysProperty,
    tz: tzProperty,
    part: csvPart(['daily', 'breakdown', 'top'], 'daily (default), breakdown, or top: id,code,title,scans,unique_scans'),
    top: Type.Optional(
      Type.Integer({
        minimum: 1,
        maximum: 100,
        rule: 'must be an integer between 1 and 100',
        description: 'How many top codes part=top lists, default 100',
      }),
    ),
    account: TabAccountQuery,
  },
  { additionalProperties: false },
);

export const CsvResponse = {
  description: 'CSV (RFC 4180) with a header row; cells that a spreadsheet would run as a formula are prefixed with an apostrophe',
  content: { 'text/csv': { schema: Type.String() } },
};

export const RecentQuery = Type.Object(
  {
    since: Type.Optional(
      Type.String({ format: 'date-time', rule: 'must be an ISO 8601 date-time', description: 'Only scans after this instant (exclusive)' }),
    ),
  },
  { additionalProperties: false },
);

export const RecentResponse = named(
  'RecentScans',
  Type.Object({
    scanCount: Count,
    uniqueScanCount: Count,
    botScanCount: Count,
    lastScanAt: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
    recent: StatsResponse.properties.recent,
  }),
);
