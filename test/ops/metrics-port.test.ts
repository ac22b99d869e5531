// The server as deployed: METRICS_PORT opens a second listener with GET /metrics, the public
// port has no /metrics, and SIGTERM closes both.
import { afterEach, describe, expect, it } from 'vitest';
import { type RunningServer, freePort, startServer } from '../support/processes.ts';

let server: RunningServer | null = null;
afterEach(async () => {
  await server?.stop('SIGTERM');
  server = null;
});

describe('METRICS_PORT', () => {
  it('serves GET /metrics on its own port, not on the public one, and stops with the server', async () => {
    const port = await freePort();
    server = await startServer({ DATABASE_URL: 'sqlite::memory:', METRICS_PORT: String(port), LOG_LEVEL: 'info' });
    expect((await fetch(`${server.url}/r/nosuchcode`)).status).toBe(404);
    expect((await fetch(`${server.url}/metrics`)).status).toBe(404);
    const text = await (await fetch(`http://127.0.0.1:${port}/metrics`)).text();
    expect(text).toMatch(/^qrtrack_short_link_answers_total\{outcome="not_found"\} 1$/m);
    expect(text).toMatch(/^qrtrack_http_request_duration_seconds_count\{method="GET",route="\/healthz",status_class="2xx"\} \d+$/m);
    expect(server.output()).toContain(`metrics at http://127.0.0.1:${port}/metrics`);
    expect(await server.stop('SIGTERM')).toBe(0);
    await expect(fetch(`http://127.0.0.1:${port}/metrics`)).rejects.toThrow();
  }, 120_000);
});
