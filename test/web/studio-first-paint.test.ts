// "New code" opened cold arrives with its first preview drawn by the server
// (src/http/web-app/studio-page.ts); the app then renders the same studio over it. What the
// user sees must not flash or move: the very image element stays, in the same place, with no
// "Loading" or "Drawing…" in between, and the scan check reads that image.
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { HAVE_CHROMIUM, OWNER, SHOTS_DIR, checkPage, useBrowserSuite } from '../support/browser.ts';

const suite = useBrowserSuite({ db: 'studio-first-paint.db', account: { viewer: false } });

/**
 * Run in the page before its scripts: the preview's element and where it was when first painted
 * (Element Timing), and whether a stand-in (a spinner, the preview's placeholder) or another
 * image ever showed. A string: tsx would wrap a function in a helper the page does not have.
 */
const WATCH = `
  window.__first = { img: null, rect: null, standIns: [], srcChanges: 0 };
  new PerformanceObserver((list) => {
    const f = window.__first;
    for (const e of list.getEntries()) {
      if (e.identifier !== 'preview' || f.img) continue;
      f.img = e.element;
      const r = e.element.getBoundingClientRect();
      f.rect = [r.x, r.y, r.width, r.height];
      new MutationObserver(() => f.srcChanges++).observe(e.element, { attributes: true, attributeFilter: ['src'] });
    }
  }).observe({ type: 'element', buffered: true });
  new MutationObserver(() => {
    const f = window.__first;
    for (const sel of ['.loading', '.preview__placeholder']) if (document.querySelector(sel) && !f.standIns.includes(sel)) f.standIns.push(sel);
  }).observe(document, { subtree: true, childList: true });
`;

describe.skipIf(!HAVE_CHROMIUM)('the studio’s first preview, drawn by the server', () => {
  for (const width of [390, 1280]) {
    it(`at ${width} px: the app keeps the server's image where it was, shows no stand-in, and checks that image`, {
      timeout: 120_000,
    }, async () => {
      const { context, page, problems } = await suite.signIn(OWNER);
      await page.setViewportSize({ width, height: width < 500 ? 844 : 800 });
      await page.addInitScript(WATCH);
      // The session answers late: the page as the server sent it stays on screen meanwhile.
      let answerSession = () => {};
      const held = new Promise<void>((resolve) => (answerSession = resolve));
      await page.route('**/v1/session', async (route) => {
        await held;
        await route.continue();
      });
      await page.goto(`${suite.url}/app/codes/new`, { waitUntil: 'commit' });
      // Polled with evaluate (a waitForFunction string would be an eval, which the page's CSP refuses).
      await expect.poll(() => page.evaluate('window.__first && window.__first.img !== null'), { timeout: 45_000 }).toBe(true);
      await page.screenshot({ path: path.join(SHOTS_DIR, `studio-first-paint-server-${width}.png`) });
      expect(await page.getByLabel('Title').count(), 'the form is the app’s').toBe(0);
      answerSession();
      await page.getByLabel('Title').waitFor();
      await page.locator('#scan-check[data-state="ok"]').waitFor();
      await page.screenshot({ path: path.join(SHOTS_DIR, `studio-first-paint-app-${width}.png`) });
      const o = (await page.evaluate(`(() => {
        const f = window.__first;
        const img = document.querySelector('.preview__img');
        const r = img.getBoundingClientRect();
        return { same: f.img === img, first: f.rect, now: [r.x, r.y, r.width, r.height], standIns: f.standIns, srcChanges: f.srcChanges,
                 note: document.querySelector('.preview__note').textContent };
      })()`)) as { same: boolean; first: number[]; now: number[]; standIns: string[]; srcChanges: number; note: string };
      expect(o.same, 'the image element the page arrived with').toBe(true);
      expect(o.now).toEqual(o.first);
      expect(o.standIns).toEqual([]);
      expect(o.srcChanges).toBe(0);
      expect(o.note).toContain('Drawn by the server');
      // The first change is drawn in the browser, as before.
      await page.locator('input[name="dotsStyle"][value="dots"]').check();
      await page.locator('.preview__figure[data-render-ms]').waitFor();
      await expect.poll(() => page.locator('.preview__note').textContent()).toContain('Drawn in your browser');
      await page.locator('#scan-check[data-state="ok"]').waitFor();
      if (width === 390) await checkPage(page, problems, 'studio-first-paint');
      expect(problems).toEqual([]);
      await context.close();
    });
  }
});
