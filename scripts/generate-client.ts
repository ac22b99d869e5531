// npm run client:generate — rewrites packages/client/src/schema.ts from the app's document.
import fs from 'node:fs';
import { CLIENT_TYPES_FILE, generateClientTypes } from './client-types.ts';

const text = await generateClientTypes();
const before = fs.existsSync(CLIENT_TYPES_FILE) ? fs.readFileSync(CLIENT_TYPES_FILE, 'utf8') : '';
fs.writeFileSync(CLIENT_TYPES_FILE, text);
process.stdout.write(`${before === text ? 'unchanged' : 'wrote'} ${CLIENT_TYPES_FILE}\n`);
