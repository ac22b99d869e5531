// A cold open of the studio's "New code" as a phone on mobile data sees it, through Chromium's
// network panel (CDP): every response until the scan check answers, with its encoding and bytes
// on the wire, and when the preview and the verdict appeared. Shared by the studio-weight test
// (which asserts on it) and the studio bench (which reports it with the Fast 3G targets).
import type { CDPSession, Page } from 'playwright-core';

export interface Transfer {
  url: string;
  encoding: string | undefined;
  /** Bytes on the wire, headers included. */
  bytes: number;
  /** Milliseconds from the navigation's start. */
  startedAt: number;
}

/** Chromium's Fast 3G profile (DevTools' presets: 1.6 Mbps × 0.9 down, 750 kbps × 0.9 up, 150 ms × 3.75). */
export const FAST_3G = {
  offline: false,
  latency: 562.5,
  downloadThroughput: ((1.6 * 1024 * 1024) / 8) * 0.9,
  uploadThroughput: ((750 * 1024) / 8) * 0.9,
};

/** Opens the studio on a cold cache and records every response until the scan check answers. */
export async function openStudioCold(
  page: Page,
  cdp: CDPSession,
  serverUrl: string,
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
  await page.goto(`${serverUrl}/app/codes/new`);
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

export function summary(transfers: Transfer[]): Record<string, number> {
  const sum = (f: (t: Transfer) => boolean) => kib(transfers.filter(f).reduce((s, t) => s + t.bytes, 0));
  return {
    total: sum(() => true),
    app: sum((t) => /\/app\/assets\/(index|studio|shared-pages|layout)[^/]*\.(js|css)$/.test(t.url)),
    renderer: sum((t) => t.url.includes('browser-renderer')),
    scanCheck: sum((t) => /scan-check|zxing/.test(t.url)),
    api: sum((t) => t.url.includes('/v1/')),
  };
}
