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

/**
 * Run in the page before its own scripts: when the preview image was first painted (Element
 * Timing: the img carries elementtiming="preview") and when the scan check's verdict entered the
 * page, both on the page's clock (milliseconds from the navigation's start). A string, not a
 * function: tsx would wrap a function in a helper the page does not have.
 */
const MILESTONES = `
  window.__studio = { preview: NaN, verdict: NaN };
  new PerformanceObserver((list) => {
    for (const e of list.getEntries()) {
      if (e.identifier === 'preview' && Number.isNaN(window.__studio.preview)) window.__studio.preview = e.renderTime || e.loadTime;
    }
  }).observe({ type: 'element', buffered: true });
  new MutationObserver(() => {
    if (Number.isNaN(window.__studio.verdict) && document.querySelector('#scan-check[data-state="ok"]')) window.__studio.verdict = performance.now();
  }).observe(document, { subtree: true, childList: true, attributes: true, attributeFilter: ['data-state'] });
`;

/**
 * Opens the studio on a cold cache and records every response until the scan check answers.
 * The preview's time is its first paint (not when its element exists: a stylesheet still
 * loading holds the paint back); the verdict's, when it entered the page.
 */
export async function openStudioCold(
  page: Page,
  cdp: CDPSession,
  serverUrl: string,
): Promise<{
  transfers: Transfer[];
  previewAt: number;
  verdictAt: number;
  scanAskedAt: number;
  /** When the renderer's chunk was asked for (Infinity: not before the verdict was read). */
  rendererAskedAt: number;
}> {
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
  await page.addInitScript(MILESTONES);
  started = Date.now();
  // Not until the load event: what the page preloads holds that back, not the preview.
  await page.goto(`${serverUrl}/app/codes/new`, { waitUntil: 'commit' });
  await page.locator('#scan-check[data-state="ok"]').waitFor({ timeout: 120_000 });
  // Polled with evaluate: a waitForFunction string would be an eval, which the page's CSP refuses.
  for (let i = 0; i < 200 && (await page.evaluate('Number.isNaN(window.__studio.preview)')); i++) await page.waitForTimeout(50);
  const { preview, verdict } = (await page.evaluate('window.__studio')) as { preview: number; verdict: number };
  const previewAt = Math.round(preview);
  const verdictAt = Math.round(verdict);
  const asked = [...byId.values()];
  const scan = asked.find((t) => t.url.includes('zxing_reader'));
  const renderer = asked.find((t) => t.url.includes('browser-renderer'));
  return {
    transfers: done.filter((t) => !t.url.startsWith('data:') && !t.url.startsWith('blob:')),
    previewAt,
    verdictAt,
    scanAskedAt: scan?.startedAt ?? Number.NaN,
    rendererAskedAt: renderer?.startedAt ?? Number.POSITIVE_INFINITY,
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
