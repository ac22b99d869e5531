// Schemas of the item stats, the account overview, the CSV exports and the live poll of recent scans.
// With the item stats (GET /v1/qr/{id}/stats), so each stats route reads its schemas in one place.
import { Type } from 'typebox';
import { Between, Enum, named } from '../../domain/schema-kit.ts';
import { TabAccountQuery } from './common.ts';

export const StatsQuery = Type.Object(
  {
    days: Type.Optional(Between(1, 90, true, 'Days in the series, default 14')),
    tz: Type.Optional(
      Type.String({ maxLength: 64, rule: 'must be an IANA time zone such as Europe/Berlin', description: 'IANA time zone, default UTC' }),
    ),
  },
  { additionalProperties: false },
);

const Count = Type.Integer({ minimum: 0 });
const Breakdown = Type.Array(named('BreakdownRow', Type.Object({ value: Type.String(), scans: Count })));

export const StatsResponse = named(
  'QrStats',
  Type.Object(
    {
      id: Type.String({ format: 'uuid' }),
      code: Type.String(),
      days: Type.Integer(),
      tz: Type.String(),
      from: Type.String({ format: 'date' }),
      to: Type.String({ format: 'date' }),
      totals: named(
        'StatsTotals',
        Type.Object({
          scans: Count,
          uniqueScans: Count,
          scansInRange: Count,
          uniqueScansInRange: Count,
          botScans: Count,
          firstScanAt: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
          lastScanAt: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
        }),
      ),
      daily: Type.Array(named('StatsDay', Type.Object({ date: Type.String({ format: 'date' }), scans: Count, uniqueScans: Count }))),
      recent: Type.Array(
        named(
          'RecentScan',
          Type.Object({
            scannedAt: Type.String({ format: 'date-time' }),
            device: Type.String(),
            os: Type.Union([Type.String(), Type.Null()]),
            browser: Type.Union([Type.String(), Type.Null()]),
            country: Type.Union([Type.String(), Type.Null()]),
            referrer: Type.Union([Type.String(), Type.Null()]),
          }),
        ),
      ),
      blocked: Type.Optional(
        named(
          'BlockedScans',
          Type.Object(
            { scheduled: Count, expired: Count, capped: Count, passwordRequired: Count, passwordFailed: Count },
            { description: 'Scans in range the code refused (schedule, expiry, cap, password): never in scanCount or the totals' },
          ),
        ),
      ),
      breakdown: named(
        'StatsBreakdown',
        Type.Object(
          {
            device: Breakdown,
            os: Breakdown,
            browser: Breakdown,
            country: Breakdown,
            referrer: Breakdown,
            rule: Type.Optional({
              ...Breakdown,
              description: 'A code\'s scans by the rule that matched (its id; "none": no rule matched)',
            }),
            variant: Type.Optional(
              Type.Array(Type.Object({ value: Type.String(), scans: Count, uniqueScans: Count }), {
                description: 'Split variants as "<ruleId>#<index>", with scans and unique scans side by side',
              }),
            ),
            destination: Type.Optional({
              ...Breakdown,
              description: 'Where scans of a code with rules were sent (without the forwarded query)',
            }),
          },
          {
            description:
              'Per dimension, largest first; at most 50 entries, the values past the 49th summed as one entry "(other)", so each adds up to the scans in range',
          },
        ),
      ),
    },
    { description: 'Totals, a zero-filled daily series, the 20 newest human scans and breakdowns of the range' },
  ),
);

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

const ForgetEnd = (what: string) =>
  Type.Optional(Type.String({ maxLength: 40, description: `${what}: a date (UTC midnight) or an ISO 8601 date-time` }));

export const ForgetScansQuery = Type.Object(
  { from: ForgetEnd('First instant forgotten'), to: ForgetEnd('First instant kept after the range') },
  { additionalProperties: false },
);

export const ForgetScansResponse = named(
  'ForgottenScans',
  Type.Object({ forgotten: Type.Integer({ minimum: 0, description: 'Scans removed from the log (bots and refused scans included)' }) }),
);
