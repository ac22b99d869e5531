// Debian's Chromium, launched the one way every browser test and the studio benchmark use. No
// Vitest here: the benchmark runs outside the test runner, where importing Vitest throws.
import fs from 'node:fs';
import { type Browser, chromium } from 'playwright-core';

export const CHROMIUM = '/usr/bin/chromium';
export const HAVE_CHROMIUM = fs.existsSync(CHROMIUM);

export async function launch(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--no-first-run'],
  });
}
