// Vitest global setup: the web-app and browser tests need the built app; build it once
// per run when web/ changed (a fresh build is only a stamp check).
import { ensureWebBuild } from '../../scripts/build-web.ts';

export default async function setup(): Promise<void> {
  await ensureWebBuild(() => undefined);
}
