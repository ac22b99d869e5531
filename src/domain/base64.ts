// Base64 over Uint8Array, for code that also runs in the browser (the renderer's logo
// handling): Node's Buffer does not exist there, and atob/btoa work on binary strings
// and refuse some inputs Buffer accepts. Same results as Buffer for the inputs we pass:
// the alphabet is checked by the caller, padding is optional, leftover bits are dropped.
const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
const VALUES = new Int16Array(128).fill(-1);
for (let i = 0; i < ALPHABET.length; i++) VALUES[ALPHABET.charCodeAt(i)] = i;

/** Standard base64 → bytes; stops at the first '=' and skips characters outside the alphabet. */
export function decodeBase64(text: string): Uint8Array {
  const out = new Uint8Array(Math.floor((text.length * 3) / 4));
  let n = 0;
  let acc = 0;
  let bits = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 61) break; // '='
    const v = c < 128 ? VALUES[c]! : -1;
    if (v < 0) continue;
    acc = ((acc << 6) | v) & 0xffffff;
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      out[n++] = (acc >> bits) & 0xff;
    }
  }
  return out.subarray(0, n);
}

/** Bytes → standard base64 with padding. */
export function encodeBase64(bytes: Uint8Array): string {
  const parts: string[] = [];
  const CHUNK = 3 * 4096;
  for (let start = 0; start < bytes.length; start += CHUNK) {
    let s = '';
    const end = Math.min(start + CHUNK, bytes.length);
    for (let i = start; i < end; i += 3) {
      const b0 = bytes[i]!;
      const b1 = i + 1 < end ? bytes[i + 1]! : 0;
      const b2 = i + 2 < end ? bytes[i + 2]! : 0;
      s += ALPHABET[b0 >> 2]! + ALPHABET[((b0 & 3) << 4) | (b1 >> 4)]!;
      s += i + 1 < end ? ALPHABET[((b1 & 15) << 2) | (b2 >> 6)]! : '=';
      s += i + 2 < end ? ALPHABET[b2 & 63]! : '=';
    }
    parts.push(s);
  }
  return parts.join('');
}
