// Import of codes from CSV: one row per code, with the columns of a create request
// (kinds and typed fields, flat design options, a `design` JSON cell, `tags` separated by
// `|`) and a default design for the rows that do not set an option.
//
// Two passes over the input: the first validates every row with the rules of POST /v1/qr
// and stops at the first bad one, naming its line, before anything is stored; then the code
// quota is checked for the whole file; the second pass stores the codes in transactions of a
// few milliseconds each (up to 1,000 codes), with a turn of the event loop between them. Both
// stream, so memory stays flat however long the file is.
import type { Readable } from 'node:stream';
import { CsvError, parse } from 'csv-parse';
import { type Db, betweenSlices } from '../db/database.ts';
import { QrItemsRepository } from '../db/qr-items/qr-items-repository.ts';
import { inTransaction } from '../db/transaction.ts';
import { DESIGN_FIELDS, type DesignPatch, DesignPatchSchema, normalizeDesignPatch } from '../domain/design/design.ts';
import { parseLogoDataUrl } from '../domain/design/logo.ts';
import { NO_LOGOS, type ParseLogo, type ParsedLogos, parseLogosOf } from '../domain/design/request-logos.ts';
import { checkCodeQuota } from '../domain/qr-items/code-quota.ts';
import { ValidationError } from '../domain/errors.ts';
import { turnTaker } from '../event-loop-turns.ts';
import { type NewQrItemContent, type PlanSecrets, type QrItemRequest, planCreate } from '../domain/qr-items/qr-item.ts';
import { passwordHasher } from '../domain/dynamic/code-password.ts';
import { TAG_SEPARATOR } from '../domain/qr-items/tags.ts';
import { CreateQrBody } from '../http/schemas/qr-items.ts';
import { validatorCompiler } from '../http/request/validation.ts';
import { unguardFormula } from './csv-formulas.ts';
import { EXPORT_COLUMNS } from './export-codes.ts';

export interface ImportOptions {
  publicBaseUrl: string;
  /** The domain every imported code's short link lives on (the account's default); null or absent: the instance's address. */
  domainId?: string | null;
  /**
   * Parses a custom logo in the render pool (and draws it once at the largest size a code
   * gives it, the cost trial of POST /v1/qr); each row's logos go through it before the row
   * is planned: sanitizing a large SVG logo is slow and must not run on the short links' thread,
   * and a logo too costly to draw must be refused (docs/performance.md).
   */
  parseLogo: ParseLogo;
  /** Design options for every row that does not set them itself. */
  defaultDesign?: DesignPatch;
  /** Called after each stored batch with the number of codes stored so far. */
  onProgress?(stored: number, total: number): void;
  /** Live codes the account may hold (the code quota); an import past it is refused before anything is stored. */
  maxCodes?: number;
}

export interface ImportSummary {
  created: number;
}

/**
 * Codes stored per transaction: as many as fit a few milliseconds of the thread that answers the
 * short links, judged by the last one (docs/decisions/bulk-work-and-quotas.md).
 */
const BATCH = { first: 50, min: 10, max: 1_000, targetMs: 5 } as const;

interface PropertySchema {
  type?: string;
  anyOf?: PropertySchema[];
}
const PROPERTIES = (CreateQrBody as unknown as { properties: Record<string, PropertySchema> }).properties;
/** Columns an exported file carries that describe a stored code; an import skips them. */
const SKIPPED = new Set<string>(EXPORT_COLUMNS.filter((c) => !(c in PROPERTIES)));
const KNOWN = [...Object.keys(PROPERTIES).filter((c) => c !== 'tracking'), ...SKIPPED];

const checkRequest = validatorCompiler({ schema: CreateQrBody, httpPart: 'body', method: 'POST', url: '/v1/qr' }) as (v: unknown) => {
  error?: Error;
};

const checkDesign = validatorCompiler({ schema: DesignPatchSchema, httpPart: 'body', method: 'POST', url: '' }) as (v: unknown) => {
  error?: Error;
};

/** A default design given as JSON text (the CLI's --design-json), checked and normalised as a request's design is. */
export async function designFromJson(raw: string, option: string): Promise<DesignPatch> {
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch {
    throw new ValidationError(`${option}: is not valid JSON`);
  }
  const checked = checkDesign(parsed);
  if (checked.error) throw new ValidationError(`${option}: ${checked.error.message}`);
  const design = parsed as DesignPatch;
  // One logo, before any row: parsed on this thread, as the CLI has no short links to answer.
  return normalizeDesignPatch(design, await parseLogosOf(design, async (field, logo) => parseLogoDataUrl(field, logo)));
}

export async function importCodes(db: Db, accountId: string, open: () => Readable, options: ImportOptions): Promise<ImportSummary> {
  // The parser hands over a whole chunk at once and the rows come as microtasks: without turns a
  // file is one stretch of the short links' thread (docs/performance.md).
  const turn = turnTaker(200);
  let total = 0;
  for await (const row of rows(open(), options)) {
    await row.prepare();
    row.plan();
    total++;
    await turn();
  }
  const maxCodes = options.maxCodes ?? Number.POSITIVE_INFINITY;
  // Refused whole before anything is stored; each transaction below checks again, as codes
  // created meanwhile by other requests count too.
  checkCodeQuota(await new QrItemsRepository(db).countLive(accountId), maxCodes, total);
  let created = 0;
  let batch: NewQrItemContent[] = [];
  let batchSize: number = BATCH.first;
  const flush = async () => {
    const contents = batch;
    batch = [];
    const started = performance.now();
    // One transaction per batch, holding no await but the database's own: a long import
    // never keeps the database locked while it reads its input.
    await inTransaction(db, (tx) => new QrItemsRepository(tx).createMany(accountId, contents, maxCodes));
    const tookMs = Math.max(performance.now() - started, 0.1);
    batchSize = Math.round(Math.min(BATCH.max, batchSize * 2, Math.max(BATCH.min, (contents.length * BATCH.targetMs) / tookMs)));
    created += contents.length;
    options.onProgress?.(created, total);
    await betweenSlices(db);
  };
  for await (const row of rows(open(), options)) {
    // Parsed logos are remembered only briefly: the second pass parses them again.
    await row.prepare();
    batch.push(row.plan());
    if (batch.length >= batchSize) await flush();
    await turn();
  }
  if (batch.length > 0) await flush();
  return { created };
}

interface Row {
  line: number;
  /** Checks the row and parses its logos off the event loop; plan() must follow with no await between. */
  prepare(): Promise<void>;
  plan(): NewQrItemContent;
}

async function* rows(input: Readable, options: ImportOptions): AsyncGenerator<Row> {
  const hashPasswordOf = passwordHasher();
  let header = false;
  const columns = (names: string[]) => {
    header = true;
    return checkHeader(names);
  };
  const parser = input.pipe(parse({ bom: true, columns, skip_empty_lines: true, info: true, relax_quotes: false }));
  try {
    for await (const { record, info } of parser as AsyncIterable<{ record: Record<string, string>; info: { lines: number } }>) {
      const line = info.lines;
      const atLine = (err: unknown) => (err instanceof ValidationError ? new ValidationError(`line ${line}: ${err.message}`) : err);
      let req: QrItemRequest | null = null;
      let logos: ParsedLogos = NO_LOGOS;
      let secrets: PlanSecrets = {};
      yield {
        line,
        prepare: async () => {
          try {
            req = toRequest(record, options.defaultDesign);
            const checked = checkRequest(req);
            if (checked.error) throw checked.error;
            logos = await parseLogosOf(req, options.parseLogo);
            secrets = await hashPasswordOf(req);
          } catch (err) {
            throw atLine(err);
          }
        },
        plan: () => {
          if (req === null) throw new Error('import: a row was planned before it was prepared');
          try {
            return { ...planCreate(req, { publicBaseUrl: options.publicBaseUrl }, logos, secrets), domainId: options.domainId ?? null };
          } catch (err) {
            throw atLine(err);
          }
        },
      };
    }
  } catch (err) {
    if (err instanceof CsvError) throw new ValidationError(`line ${(err as CsvError & { lines?: number }).lines ?? '?'}: ${err.message}`);
    throw err;
  }
  // An empty file is a mistake (the wrong file, a failed export), not an import of nothing.
  if (!header) throw new ValidationError('line 1: the file is empty; a header row with a "title" column is required');
}

function checkHeader(header: string[]): string[] {
  const seen = new Set<string>();
  for (const name of header) {
    if (!KNOWN.includes(name)) throw new ValidationError(`line 1: unknown column "${name}"; known columns: ${KNOWN.join(', ')}`);
    if (seen.has(name)) throw new ValidationError(`line 1: column "${name}" appears twice`);
    seen.add(name);
  }
  if (!seen.has('title')) throw new ValidationError('line 1: a "title" column is required');
  return header;
}

/** One CSV record as a create request: typed by the request schema; an empty cell is no value. */
function toRequest(record: Record<string, string>, defaults: DesignPatch | undefined): QrItemRequest {
  const out: Record<string, unknown> = {};
  for (const [name, cell] of Object.entries(record)) {
    if (cell === '' || SKIPPED.has(name)) continue;
    out[name] = cellValue(name, unguardFormula(cell));
  }
  // The default design fills the options a row leaves unset, flat or nested.
  const nested = (out.design ?? {}) as Record<string, unknown>;
  for (const field of DESIGN_FIELDS) {
    const value = defaults?.[field];
    if (value !== undefined && out[field] === undefined && nested[field] === undefined) out[field] = value;
  }
  return out as QrItemRequest;
}

function cellValue(name: string, cell: string): unknown {
  if (name === 'tags') return cell.split(TAG_SEPARATOR);
  if (name === 'design') {
    try {
      return JSON.parse(cell) as unknown;
    } catch {
      throw new ValidationError('design: must be a JSON object');
    }
  }
  const schema = PROPERTIES[name];
  // A nullable field (maxScans, rules, utm, …) converts as its non-null type.
  const type = schema?.type ?? schema?.anyOf?.find((s) => s.type !== 'null')?.type;
  if (type === 'object' || type === 'array') {
    try {
      return JSON.parse(cell) as unknown;
    } catch {
      throw new ValidationError(`${name}: must be JSON (${type === 'array' ? 'an array' : 'an object'})`);
    }
  }
  if (type === 'boolean' && /^(true|false)$/i.test(cell)) return cell.toLowerCase() === 'true';
  if ((type === 'number' || type === 'integer') && /^-?\d+(\.\d+)?$/.test(cell)) return Number(cell);
  return cell;
}
