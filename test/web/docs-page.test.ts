// /docs (Swagger UI) in a real browser at phone width: laid out for 390 px, and not one
// Content-Security-Policy violation or console error while it renders the whole reference.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HAVE_CHROMIUM, useBrowserSuite } from '../support/browser.ts';
import { type TestApp, makeTestApp } from '../support/test-app.ts';

let t: TestApp;
let baseUrl: string;

beforeAll(async () => {
  t = await makeTestApp();
  baseUrl = await t.app.listen({ port: 0, host: '127.0.0.1' });
});
afterAll(() => t.close());

describe('/docs', () => {
  it('serves a page with a viewport tag and a CSP that allows no inline script and nothing from elsewhere', async () => {
    const res = await fetch(`${baseUrl}/docs/`);
    expect(res.status).toBe(200);
    expect(await res.text()).toContain('<meta name="viewport" content="width=device-width, initial-scale=1">');
    const csp = res.headers.get('content-security-policy') ?? '';
    expect(csp).toContain("script-src 'self'");
    expect(csp).toContain("style-src-elem 'self'");
    expect(csp).not.toMatch(/https:|upgrade-insecure-requests|script-src[^;]*unsafe-inline/);
  });

  describe.skipIf(!HAVE_CHROMIUM)('in Chromium at 390 px', () => {
    // The app under test is the in-process one above (no server process): the suite gives only the browser.
    const suite = useBrowserSuite({});

    it('fits the phone and renders every operation without a console error or CSP violation', async () => {
      const page = await suite.browser.newPage({
        viewport: { width: 390, height: 844 },
        isMobile: true,
        hasTouch: true,
        deviceScaleFactor: 2,
      });
      const problems: string[] = [];
      page.on('console', (m) => {
        if (m.type() === 'error' || m.type() === 'warning') problems.push(`${m.type()}: ${m.text()}`);
      });
      page.on('pageerror', (e) => problems.push(`pageerror: ${e.message}`));
      await page.addInitScript(() => {
        document.addEventListener('securitypolicyviolation', (e) =>
          console.error(`CSP ${e.violatedDirective} ${e.sourceFile}:${e.lineNumber}`),
        );
      });
      await page.goto(`${baseUrl}/docs`, { waitUntil: 'networkidle' });
      await page.waitForSelector('.opblock');
      const doc = (await (await fetch(`${baseUrl}/v1/openapi.json`)).json()) as { paths: Record<string, object> };
      const operations = Object.values(doc.paths).reduce((n, methods) => n + Object.keys(methods).length, 0);
      expect(await page.locator('.opblock').count()).toBe(operations);
      // Open an operation with a body, its schema and a response: the parts drawn with inline styles.
      await page.locator('.opblock-post .opblock-summary').first().click();
      await page.locator('.model-box-control, .tablinks', { hasText: 'Schema' }).first().click();
      await page.waitForSelector('.model-box');
      const width = await page.evaluate(() => ({ scroll: document.documentElement.scrollWidth, inner: window.innerWidth }));
      expect(width.inner).toBe(390);
      expect(width.scroll).toBeLessThanOrEqual(390);
      expect(problems).toEqual([]);
      await page.close();
    });
  });
});
