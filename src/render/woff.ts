// WOFF 1.0 → plain OpenType (sfnt) bytes. HarfBuzz reads only sfnt, and the font
// packages we draw from ship WOFF (zlib per table), so the renderer unpacks them
// itself; fflate's inflate is pure JS and runs in the browser as in Node.
import { unzlibSync } from 'fflate';

const WOFF_SIGNATURE = 0x774f4646; // 'wOFF'

/** One table of a WOFF file: its data as stored (zlib-compressed when `packed`). */
export interface WoffTable {
  tag: number;
  checksum: number;
  data: Uint8Array;
  packed: boolean;
  length: number;
}

/** The flavor and tables of a WOFF file, or null when the bytes are already sfnt. */
export function woffTables(woff: Uint8Array): { flavor: number; tables: WoffTable[] } | null {
  const src = new DataView(woff.buffer, woff.byteOffset, woff.byteLength);
  if (src.getUint32(0) !== WOFF_SIGNATURE) return null;
  const numTables = src.getUint16(12);
  const tables: WoffTable[] = [];
  for (let i = 0; i < numTables; i++) {
    const at = 44 + i * 20;
    const offset = src.getUint32(at + 4);
    const compLength = src.getUint32(at + 8);
    const length = src.getUint32(at + 12);
    tables.push({
      tag: src.getUint32(at),
      checksum: src.getUint32(at + 16),
      data: woff.subarray(offset, offset + compLength),
      packed: compLength < length,
      length,
    });
  }
  return { flavor: src.getUint32(4), tables };
}

export function woffToSfnt(woff: Uint8Array): Uint8Array {
  const parsed = woffTables(woff);
  if (!parsed) return woff;
  return assembleSfnt(
    parsed.flavor,
    parsed.tables.map((t) => ({ ...t, data: t.packed ? unzlibSync(t.data) : t.data })),
  );
}

/** The sfnt file of `tables`, each already unpacked. */
export function assembleSfnt(flavor: number, tables: readonly WoffTable[]): Uint8Array {
  for (const t of tables) if (t.data.length !== t.length) throw new Error('woff: a table does not unpack to its stated length');
  const numTables = tables.length;
  const headerSize = 12 + 16 * numTables;
  const total = tables.reduce((n, t) => n + pad4(t.data.length), headerSize);
  const out = new Uint8Array(total);
  const dst = new DataView(out.buffer);
  let entrySelector = 0;
  while (2 ** (entrySelector + 1) <= numTables) entrySelector++;
  const searchRange = 2 ** entrySelector * 16;
  dst.setUint32(0, flavor);
  dst.setUint16(4, numTables);
  dst.setUint16(6, searchRange);
  dst.setUint16(8, entrySelector);
  dst.setUint16(10, numTables * 16 - searchRange);
  let offset = headerSize;
  tables.forEach((t, i) => {
    const at = 12 + i * 16;
    dst.setUint32(at, t.tag);
    dst.setUint32(at + 4, t.checksum);
    dst.setUint32(at + 8, offset);
    dst.setUint32(at + 12, t.data.length);
    out.set(t.data, offset);
    offset += pad4(t.data.length);
  });
  return out;
}

function pad4(n: number): number {
  return (n + 3) & ~3;
}
