// POST /v1/qr/batch: up to 1,000 creates in one request, all or nothing.
import { passwordHasher } from '../../domain/dynamic/code-password.ts';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { QrItemsRepository } from '../../db/qr-items/qr-items-repository.ts';
import { TURN_EVERY_MS, turnTaker } from '../../event-loop-turns.ts';
import { checkCodeQuota } from '../../domain/qr-items/code-quota.ts';
import { LIMITS } from '../../domain/design/design.ts';
import { ServiceBusyError, ValidationError } from '../../domain/errors.ts';
import { setTimeout as sleep } from 'node:timers/promises';
import { checkLogoShape } from '../../domain/design/logo.ts';
import { logosIn, parseLogosOf } from '../../domain/design/request-logos.ts';
import { batchError, planBatch } from '../../domain/qr-items/qr-batch.ts';
import { type QrItemRecord, type QrItemRequest, requestWarnings, toView } from '../../domain/qr-items/qr-item.ts';
import { CODE_LENGTH, shortUrlFor } from '../../domain/qr-items/short-code.ts';
import { domainForNewCode } from '../../db/domains/item-domains.ts';
import { planContext } from './qr-items.ts';
import type { AppServices } from '../../services.ts';
import { accountOf } from '../auth/api-key-auth.ts';
import { IdempotencyHeaders, answerOnce, replayAnswered } from '../request/idempotency.ts';
import { BATCH_MAX_JSON_VALUES } from '../request/batch-body.ts';
import { validatorCompiler } from '../request/validation.ts';
import type { FastifyReply, FastifyRequest, FastifySchemaCompiler } from 'fastify';
import type { Static, TSchema } from 'typebox';
import { BatchCreateBody, BatchCreateResponse } from '../schemas/bulk.ts';
import { ItemWithWarningsResponse } from '../schemas/qr-items.ts';
import { ErrorResponse, authErrors } from '../schemas/common.ts';

import type { Readable } from 'node:stream';
import { readOwnedBody } from '../request/owned-body.ts';

/** A thousand items with custom logos need more than the 1 MiB a single create gets. */
export const BATCH_BODY_LIMIT = 16 * 1024 * 1024;

export const qrBatchRoutes: FastifyPluginAsyncTypebox<{ services: AppServices }> = async (app, { services }) => {
  const { config, onItemsChanged, warningsFor } = services;
  // The body is read and validated in a render worker (http/request/batch-body.ts), by the same
  // rules and with the same answers as on the main thread; here its items are parsed back a few
  // at a time. Only bodies read so pass the route's validator unchecked.
  const readInWorker = new WeakMap<object, string>();
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', async (req: FastifyRequest, payload: Readable) => {
    const bytes = await readOwnedBody(payload, req.routeOptions.bodyLimit ?? BATCH_BODY_LIMIT, req.headers['content-length']);
    const read = await whenFree(() =>
      services.renderer.readBatchBody(
        { bytes, contentType: req.headers['content-type'], method: req.method, route: req.routeOptions.url ?? req.url },
        { account: accountOf(req), lane: 'interactive' },
      ),
    );
    const turn = turnTaker(50);
    const items: unknown[] = [];
    for (const text of read.items) {
      items.push(JSON.parse(text));
      await turn();
    }
    const body = { items };
    readInWorker.set(body, read.fingerprint);
    return body;
  });
  const bodyValidator: FastifySchemaCompiler<TSchema> = (def) => {
    const check = validatorCompiler(def);
    if (def.httpPart !== 'body') return check;
    return (value: unknown) => (typeof value === 'object' && value !== null && readInWorker.has(value) ? { value } : check(value));
  };

  app.post(
    '/qr/batch',
    {
      bodyLimit: BATCH_BODY_LIMIT,
      config: { scope: 'qr:write', maxJsonValues: BATCH_MAX_JSON_VALUES },
      validatorCompiler: bodyValidator,
      schema: {
        summary: 'Create up to 1,000 tracked QR codes at once, all or nothing',
        description:
          'Every item is validated as POST /v1/qr validates one; if any is invalid nothing is stored and the error names each broken item, e.g. `items[12].url: …`. The answer lists every item, in the order sent, with its shortUrl and warnings.',
        tags: ['qr'],
        headers: IdempotencyHeaders,
        body: BatchCreateBody,
        response: {
          201: BatchCreateResponse,
          ...authErrors,
          409: ErrorResponse,
          413: ErrorResponse,
          415: ErrorResponse,
          422: ErrorResponse,
          503: ErrorResponse,
        },
      },
    },
    async (req, reply) => {
      const account = accountOf(req);
      const answered = {
        fingerprint: readInWorker.get(req.body),
        send: (status: number, body: Static<typeof BatchCreateResponse>) => sendInSlices(reply, status, body),
      };
      // A retry of a batch already answered gets its answer before any of the work below.
      if ((await replayAnswered(services.db, req, reply, answered)) !== null) return reply;
      const requests: QrItemRequest[] = req.body.items;
      // Refused before any logo is parsed; the transaction below checks again.
      checkCodeQuota(await services.items.countLive(account), config.maxCodesPerAccount, requests.length);
      // Custom logos are parsed in the render pool just before each item is planned, as for a
      // single create; one at a time, so a batch of logos cannot fill the pool's queue.
      // Logos cost render time to parse: a batch with a logo that is plainly wrong (too large,
      // not a data: URL) is refused before any of its logos is parsed.
      const broken = requests.flatMap((item, i) =>
        logosIn(item).flatMap((logo) => {
          try {
            checkLogoShape('customLogoUrl', logo);
            return [];
          } catch (err) {
            if (err instanceof ValidationError) return [`items[${i}].${err.message}`];
            throw err;
          }
        }),
      );
      if (broken.length > 0) throw batchError(broken);
      const turn = turnTaker(20);
      const hashPasswordOf = passwordHasher();
      // Most items name no domain, or the same few: each is looked up once.
      const domainOf = new Map<string | null | undefined, Promise<string | null>>();
      const domainFor = (asked: string | null | undefined) => {
        let found = domainOf.get(asked);
        if (found === undefined) domainOf.set(asked, (found = domainForNewCode(services.domains, account, asked)));
        return found;
      };
      const contents = await planBatch(requests, planContext(services), async (item) => {
        const domainId = await domainFor(item.domain);
        const logos = await parseLogosOf(item, (field, logo) =>
          services.renderer.parseLogo(field, logo, LIMITS.resolution.max, { account, lane: 'interactive' }),
        );
        const secrets = await hashPasswordOf(item);
        await turn();
        return { logos, secrets, domainId };
      });
      // A design's warnings lay out its frame text, which a thousand would hold the short links'
      // thread for seconds (docs/big-accounts.md), so they are made between turns, before the transaction. They depend on the short link
      // only through its length, which every code shares.
      const designWarnings: string[][] = [];
      for (const content of contents) {
        const sampleShortUrl = shortUrlFor(services.addresses.baseFor(content.domainId ?? null), 'x'.repeat(CODE_LENGTH));
        designWarnings.push(await warningsFor(content.design, sampleShortUrl));
        await turn();
      }
      // Written hidden in short transactions (SQLite), shown in one below; all or nothing.
      const staged = await services.items.stageMany(account, contents);
      const entryOf = (r: QrItemRecord, i: number) => ({
        item: toView(r, services.addresses),
        warnings: [...requestWarnings(requests[i] ?? {}, r.contentType), ...(designWarnings[i] ?? [])],
      });
      // The records are known before they are shown, so the answer is made ahead, a slice at a
      // time, rather than inside the showing transaction.
      const known = await services.items.stagedRecords(staged);
      const items: Static<typeof BatchCreateResponse>['items'] = [];
      const sliced = turnTaker(50, TURN_EVERY_MS / 2);
      for (const [i, r] of known.entries()) {
        items.push(entryOf(r, i));
        await sliced();
      }
      const ready = { items };
      let answer: Static<typeof BatchCreateResponse>;
      let shown = false;
      try {
        answer = await answerOnce(
          services.db,
          req,
          reply,
          201,
          async (db) => {
            const records = await new QrItemsRepository(db).publishStaged(staged, config.maxCodesPerAccount, known);
            // A code drawn again while stored (one in trillions) changes its entry.
            return records === known ? ready : { items: records.map(entryOf) };
          },
          answered,
        );
        // Its own rows, unless another request with its Idempotency-Key was answered instead.
        shown = answer.items[0]?.item.id === staged.rows[0]?.id;
      } finally {
        // Rows a failed batch left hidden are removed (on PostgreSQL there are none).
        if (!shown) await services.items.discardStaged(staged);
      }
      void onItemsChanged(answer.items.map(({ item }) => item.code)); // new codes: the answer is already sent
      return reply;
    },
  );
};

/** One answer's item, as a plain object for Fastify's serializer (compiled once per route). */
const ITEM_SCHEMA: { [key: string]: unknown } = { ...ItemWithWarningsResponse };

/**
 * Sends a batch's answer serialized an item at a time with turns between: a thousand items in
 * one piece held the short links' thread 14-25 ms. Each item goes through the route's own
 * serializer for its schema, so the answer is what Fastify would have written.
 */
async function sendInSlices(reply: FastifyReply, status: number, body: Static<typeof BatchCreateResponse>): Promise<void> {
  const serializeItem = reply.compileSerializationSchema(ITEM_SCHEMA, String(status));
  const turn = turnTaker(50, TURN_EVERY_MS / 2);
  const parts: string[] = [];
  for (const entry of body.items) {
    parts.push(serializeItem(entry));
    await turn();
  }
  await reply
    .code(status)
    .type('application/json; charset=utf-8')
    .send(`{"items":[${parts.join(',')}]}`);
}

/** A busy render pool (503) is waited out this many times, 250 ms apart, before the batch answers 503. */
const BUSY_RETRIES = 20;

/**
 * The body waits for a render worker when every one is busy (images, or threads of jobs stopped
 * over budget still running) rather than being read on the short links' thread; a batch with no
 * logo is refused only when the pool stays busy for seconds.
 */
async function whenFree<T>(work: () => Promise<T>): Promise<T> {
  for (let attempt = 0; ; attempt++) {
    try {
      return await work();
    } catch (err) {
      if (!(err instanceof ServiceBusyError) || attempt >= BUSY_RETRIES) throw err;
      await sleep(250);
    }
  }
}
