// Loads every native addon the service uses, as this Node would, and exercises it once.
// CI runs it before each Node version's test run: a failure means an addon was built for
// another Node's ABI and needs `npm rebuild` against this Node's headers.
import { Resvg } from '@resvg/resvg-js';
import { SQLite, sqliteDriverName, sqliteDriverPath } from '../src/db/sqlite/sqlite-driver.ts';

const db = new SQLite(':memory:');
const { version } = db.prepare('select sqlite_version() as version').get() as { version: string };
db.close();
const png = new Resvg('<svg xmlns="http://www.w3.org/2000/svg" width="2" height="2"/>').render().asPng();
if (png.length === 0) throw new Error('resvg rendered nothing');
console.log(`native addons load on Node ${process.version}: ${sqliteDriverName} (SQLite ${version}, ${sqliteDriverPath}), resvg`);
