// Builds a real app on a real database for a test: a fresh SQLite file by default,
// or a fresh PostgreSQL schema when TEST_DATABASE_URL is set.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify';
import { buildApp } from '../../src/app.ts';
import { type Config, loadConfig } from '../../src/config.ts';
import { type Db, openDatabase } from '../../src/db/database.ts';
import { generateApiKey, parseScopes } from '../../src/domain/accounts/api-key.ts';
import type { AppServices } from '../../src/services.ts';
import { freshDatabaseUrl } from './databases.ts';

export const PUBLIC_BASE_URL = 'http://qr.test';

export interface TestApp {
  app: FastifyInstance;
  services: AppServices;
  config: Config;
  db: Db;
  /** Creates an account (if new) and a key with the given scopes; returns the key. */
  key(account?: string, scopes?: string): Promise<string>;
  request(opts: InjectOptions & { key?: string }): Promise<LightMyRequestResponse>;
  close(): Promise<void>;
}

export async function makeTestApp(env: Record<string, string> = {}): Promise<TestApp> {
  const { url, dispose } = await freshDatabaseUrl();
  const config = loadConfig({ DATABASE_URL: url, LOG_LEVEL: 'silent', PUBLIC_BASE_URL, ...env });
  const db = await openDatabase(config.database);
  const { app, services } = await buildApp(config, db);
  await app.ready();
  return {
    app,
    services,
    config,
    db,
    async key(account = 'acme', scopes = 'qr:read,qr:write') {
      const accountId = await services.keys.ensureAccount(account);
      const k = generateApiKey();
      await services.keys.createKey({ accountId, name: 'test', prefix: k.prefix, hash: k.hash, scopes: parseScopes(scopes) });
      return k.key;
    },
    request({ key, headers, ...opts }) {
      return app.inject({ ...opts, headers: { ...(key ? { authorization: `Bearer ${key}` } : {}), ...headers } });
    },
    async close() {
      await app.close();
      await db.close();
      await dispose();
    },
  };
}

export function tempDir(prefix = 'qrtrack-test-'): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), prefix));
}
