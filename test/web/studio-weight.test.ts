// What the studio costs a phone on mobile data, measured in Chromium with its network panel
// (CDP): the bytes transferred for a cold open of "New code" up to the scan check's verdict,
// each script, stylesheet and WebAssembly file compressed (brotli) as it travels, the scan
// check's WebAssembly asked for only after the preview shows, and on the Fast 3G profile when
// the preview and the verdict appear. The figures are logged for docs/performance.md.
import type { CDPSession, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { HAVE_CHROMIUM, OWNER, useBrowserSuite } from '../support/browser.ts';

const suite = useBrowserSuite({ db: 'studio-weight.db', account: { viewer: false } });

interface Transfer {
  url: string;
  encoding: string | undefined;
  /** Bytes on the wire, headers included. */
  bytes: number;
  /** Milliseconds from the navigation's start. */
  startedAt: number;
}

/** Chromium's Fast 3G profile (DevTools' presets: 1.6 Mbps × 0.9 down, 750 kbps × 0.9 up, 150 ms × 3.75). */
const FAST_3G = {
  offline: false,
  latency: 562.5,
  downloadThroughput: ((1.6 * 1024 * 1024) / 8) * 0.9,
  uploadThroughput: ((750 * 1024) / 8) * 0.9,
};

/** Opens the studio on a cold cache and records every response until the scan check answers. */
async function openStudioCold(
  page: Page,
  cdp: CDPSession,
): Promise<{ transfers: Transfer[]; previewAt: number; verdictAt: number; scanAskedAt: number; previewDrawnAt: number }> {
  const byId = new Map<string, Transfer>();
  const done: Transfer[] = [];
  // Times as the events arrive, on the same clock as the page's milestones below.
  let started = Date.now();
  cdp.on('Network.requestWillBeSent', (e) => {
    byId.set(e.requestId, { url: e.request.url, encoding: undefined, bytes: 0, startedAt: Date.now() - started });
  });
  cdp.on('Network.responseReceived', (e) => {
    const t = byId.get(e.requestId);
    if (t) t.encoding = Object.entries(e.response.headers).find(([k]) => k.toLowerCase() === 'content-encoding')?.[1];
  });
  cdp.on('Network.loadingFinished', (e) => {
    const t = byId.get(e.requestId);
    if (!t) return;
    t.bytes = e.encodedDataLength;
    done.push(t);
  });
  await cdp.send('Network.enable');
  await cdp.send('Network.setCacheDisabled', { cacheDisabled: true });
  started = Date.now();
  await page.goto(`${suite.url}/app/codes/new`);
  await page.locator('.preview__img').waitFor({ timeout: 120_000 });
  const previewAt = Date.now() - started;
  await page.locator('#scan-check[data-state="ok"]').waitFor({ timeout: 120_000 });
  const verdictAt = Date.now() - started;
  const scan = done.find((t) => t.url.includes('zxing_reader'));
  // The preview's data: URL shows in the network log when its image loads: the moment it is drawn.
  const drawn = done.find((t) => t.url.startsWith('data:image/svg+xml;charset=utf-8,'));
  return {
    transfers: done.filter((t) => !t.url.startsWith('data:') && !t.url.startsWith('blob:')),
    previewAt,
    verdictAt,
    scanAskedAt: scan?.startedAt ?? Number.NaN,
    previewDrawnAt: drawn?.startedAt ?? Number.NaN,
  };
}

const kib = (n: number) => Math.round(n / 1024);

function summary(transfers: Transfer[]): Record<string, number> {
  const sum = (f: (t: Transfer) => boolean) => kib(transfers.filter(f).reduce((s, t) => s + t.bytes, 0));
  return {
    total: sum(() => true),
    app: sum((t) => /\/app\/assets\/(index|studio-page|layout)[^/]*\.(js|css)$/.test(t.url)),
    renderer: sum((t) => t.url.includes('browser-renderer')),
    scanCheck: sum((t) => /scan-check|zxing/.test(t.url)),
    api: sum((t) => t.url.includes('/v1/')),
  };
}

describe.skipIf(!HAVE_CHROMIUM)('the studio on mobile data', () => {
  it('sends every script, style and WebAssembly file compressed: under 600 KiB in all to the scan check’s verdict', {
    timeout: 240_000,
  }, async () => {
    const { context, page } = await suite.signIn(OWNER);
    const cdp = await context.newCDPSession(page);
    const { transfers, previewAt, verdictAt } = await openStudioCold(page, cdp);
    console.log(
      `studio, cold, unthrottled: ${JSON.stringify(summary(transfers))} KiB transferred; preview ${previewAt} ms, scan check ${verdictAt} ms`,
    );
    for (const t of transfers.filter((t) => /\/app\/assets\/.*\.(js|css|wasm)$/.test(t.url))) {
      expect(t.encoding, t.url).toMatch(/^(br|gzip)$/);
    }
    expect(summary(transfers).total).toBeLessThan(600);
    await context.close();
  });

  it('on Fast 3G shows the preview before the scan check starts loading, and says when each appeared', { timeout: 240_000 }, async () => {
    const { context, page } = await suite.signIn(OWNER);
    const cdp = await context.newCDPSession(page);
    await cdp.send('Network.enable');
    await cdp.send('Network.emulateNetworkConditions', FAST_3G);
    const { transfers, previewAt, verdictAt, scanAskedAt, previewDrawnAt } = await openStudioCold(page, cdp);
    console.log(
      `studio, cold, Fast 3G: ${JSON.stringify(summary(transfers))} KiB transferred; preview ${previewAt} ms, scan check ${verdictAt} ms (zxing asked for at ${Math.round(scanAskedAt)} ms)`,
    );
    // The preview first: the WebAssembly of the scan check is not competing for the line.
    expect(scanAskedAt).toBeGreaterThanOrEqual(previewDrawnAt);
    expect(transfers.filter((t) => t.url.includes('zxing_reader'))).toHaveLength(1);
    await context.close();
  });
});
