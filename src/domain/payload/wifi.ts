// Wi-Fi: WIFI:T:<enc>;S:<ssid>;P:<pass>;;  (the ZXing "WIFI:" format)
import { ValidationError } from '../errors.ts';
import { required } from './checks.ts';
import { type TypedFields, WIFI_ENCRYPTIONS, type WifiEncryption } from './fields.ts';

const SSID_MAX_BYTES = 32;

export function assembleWifi(f: TypedFields): string {
  const ssid = required(f.wifiSsid, 'wifiSsid', 'wifi', false); // spaces in SSIDs are significant
  if (new TextEncoder().encode(ssid).length > SSID_MAX_BYTES) {
    throw new ValidationError(`wifiSsid: must be at most ${SSID_MAX_BYTES} bytes (UTF-8)`);
  }
  const enc = wifiEncryption(f);
  if (enc === 'nopass') return `WIFI:T:nopass;S:${escapeWifi(ssid)};;`;
  const pass = f.wifiPass ?? '';
  if (pass === '') throw new ValidationError(`wifiPass: is required when wifiEnc is ${enc}`);
  return `WIFI:T:${enc};S:${escapeWifi(ssid)};P:${escapeWifi(pass)};;`;
}

/** `wifiEnc` defaults to WPA when a password is given; without one, only an open network works. */
function wifiEncryption(f: TypedFields): WifiEncryption {
  const enc = f.wifiEnc;
  if (enc === undefined) return (f.wifiPass ?? '') === '' ? 'nopass' : 'WPA';
  if (!(WIFI_ENCRYPTIONS as readonly string[]).includes(enc)) {
    throw new ValidationError(`wifiEnc: must be one of ${WIFI_ENCRYPTIONS.join(', ')}`);
  }
  return enc;
}

function escapeWifi(value: string): string {
  return value.replace(/[\\;,:"]/g, (c) => `\\${c}`);
}

export interface WifiFields {
  ssid: string;
  password: string;
  /** `WPA`, `WEP`, `nopass`, or another T: value as written (upper-cased), e.g. `WPA2-EAP`. */
  encryption: string;
  hidden: boolean;
}

/** Reads a `WIFI:` payload, also hand-written ones (any field order, quotes, missing `;;`). */
export function parseWifiPayload(payload: string): WifiFields | null {
  const s = payload.trim();
  if (!/^WIFI:/i.test(s)) return null;
  const fields = readWifiFields(s.slice(5));
  const ssid = fields.get('S');
  if (ssid === undefined || ssid === '') return null;
  const password = fields.get('P') ?? '';
  const encryption = wifiEncryptionOf(fields.get('T'), password);
  return {
    ssid,
    password: encryption === 'nopass' ? '' : password,
    encryption,
    hidden: (fields.get('H') ?? '').toLowerCase() === 'true',
  };
}

function wifiEncryptionOf(t: string | undefined, password: string): string {
  if (t === undefined || t === '') return password === '' ? 'nopass' : 'WPA';
  return t.toLowerCase() === 'nopass' ? 'nopass' : t.toUpperCase();
}

/** `K:value;` pairs; the first occurrence of a key wins. Backslash escapes any character. */
function readWifiFields(body: string): Map<string, string> {
  const fields = new Map<string, string>();
  const keyAt = /([A-Za-z0-9]+):/y;
  let i = 0;
  while (i < body.length) {
    keyAt.lastIndex = i;
    const key = keyAt.exec(body);
    const start = key ? i + key[0].length : i;
    const { value, end } = readWifiValue(body, start);
    const name = key?.[1]?.toUpperCase();
    if (name !== undefined && !fields.has(name)) fields.set(name, value);
    i = end + 1;
  }
  return fields;
}

function readWifiValue(body: string, start: number): { value: string; end: number } {
  const chars: { c: string; escaped: boolean }[] = [];
  let i = start;
  for (; i < body.length && body[i] !== ';'; i++) {
    const escaped = body[i] === '\\' && i + 1 < body.length;
    if (escaped) i++;
    chars.push({ c: body[i] ?? '', escaped });
  }
  // A value wrapped in unescaped double quotes is quoted (allowed by the format); strip them.
  const first = chars[0];
  const last = chars[chars.length - 1];
  const quoted = chars.length >= 2 && first?.c === '"' && !first.escaped && last?.c === '"' && !last.escaped;
  const inner = quoted ? chars.slice(1, -1) : chars;
  return { value: inner.map((ch) => ch.c).join(''), end: i };
}
