// The OpenAPI document exactly as a server answers it at /v1/openapi.json, built in-process
// (on an in-memory database, with a fixed public base URL) so its output never depends on
// the machine that runs it.
import { buildApp } from '../src/app.ts';
import { loadConfig } from '../src/config.ts';
import { openDatabase } from '../src/db/database.ts';

export const DOCUMENT_BASE_URL = 'http://localhost:3000';

export async function openApiDocument(): Promise<Record<string, unknown>> {
  const config = loadConfig({ DATABASE_URL: 'sqlite::memory:', LOG_LEVEL: 'silent', PUBLIC_BASE_URL: DOCUMENT_BASE_URL });
  const db = await openDatabase(config.database);
  try {
    const { app } = await buildApp(config, db);
    try {
      const res = await app.inject({ method: 'GET', url: '/v1/openapi.json' });
      if (res.statusCode !== 200) throw new Error(`/v1/openapi.json answered ${res.statusCode}`);
      return res.json() as Record<string, unknown>;
    } finally {
      await app.close();
    }
  } finally {
    await db.close();
  }
}
