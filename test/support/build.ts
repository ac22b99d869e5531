// Vitest global setup: build what is older than its sources (`npm run build`), once per run
// before any test: the web-app and browser tests serve dist/web, and the tests of `npm start`
// and of a production install run dist/. A fresh build costs a check of file dates.
import { build } from '../../scripts/build.mjs';

export default async function setup(): Promise<void> {
  await build({ log: () => undefined });
}
