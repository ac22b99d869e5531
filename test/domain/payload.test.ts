import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ValidationError } from '../../src/domain/errors.ts';
import {
  CONTENT_TYPES,
  type ContentType,
  PAYLOAD_MAX_LENGTH,
  TYPED_FIELDS,
  type TypedFields,
  assemblePayload,
  escapeVcardText,
  parseVcardPayload,
  parseWifiPayload,
  unescapeVcardText,
  validatePayload,
} from '../../src/domain/payload/index.ts';

/** The ValidationError message thrown by `fn`; fails the test when it does not throw one. */
function rejection(fn: () => unknown): string {
  try {
    fn();
  } catch (e) {
    expect(e).toBeInstanceOf(ValidationError);
    return (e as ValidationError).message;
  }
  throw new Error('expected a ValidationError');
}

const assemble = (kind: ContentType, fields: TypedFields) => assemblePayload(kind, fields);
const url = (value: string) => assemble('url', { url: value });

describe('content types and typed fields', () => {
  it('lists the six content kinds of the spec', () => {
    expect(CONTENT_TYPES).toEqual(['url', 'wifi', 'vcard', 'whatsapp', 'text', 'email']);
  });

  it('lists every typed field of the create request', () => {
    expect(TYPED_FIELDS).toHaveLength(16);
    expect(TYPED_FIELDS).toContain('wifiEnc');
    expect(TYPED_FIELDS).toContain('emailBody');
  });

  it('rejects an unknown content type instead of crashing', () => {
    expect(rejection(() => assemble('fax' as ContentType, {}))).toMatch(/^contentType: must be one of/);
    expect(rejection(() => validatePayload('fax' as ContentType, 'x'))).toMatch(/^contentType: /);
  });
});

describe('url payloads', () => {
  it('keeps http and https URLs, normalized', () => {
    expect(url('https://example.com/a?b=1#c')).toBe('https://example.com/a?b=1#c');
    expect(url('HTTP://Example.COM')).toBe('http://example.com/');
    expect(url('  https://example.com/x  ')).toBe('https://example.com/x');
  });

  it('gives a bare address https://', () => {
    expect(url('example.com/x')).toBe('https://example.com/x');
    expect(url('www.example.com')).toBe('https://www.example.com/');
    expect(url('example.com:8080/x')).toBe('https://example.com:8080/x');
    expect(url('localhost:3000/x')).toBe('https://localhost:3000/x');
    expect(url('//example.com/a')).toBe('https://example.com/a');
  });

  it('encodes non-ASCII so the redirect header stays ASCII', () => {
    expect(url('https://bücher.de/ä b')).toBe('https://xn--bcher-kva.de/%C3%A4%20b');
  });

  it('accepts IP addresses and single-label hosts when the scheme is explicit', () => {
    expect(url('http://192.168.1.10/wiki')).toBe('http://192.168.1.10/wiki');
    expect(url('http://[::1]:8080/')).toBe('http://[::1]:8080/');
    expect(url('http://intranet/wiki')).toBe('http://intranet/wiki');
  });

  it.each([
    'javascript:alert(1)',
    'JaVaScRiPt:alert(1)',
    'javascript://example.com/%0Aalert(1)',
    'data:text/html,<script>alert(1)</script>',
    'file:///etc/passwd',
    'vbscript:msgbox(1)',
    'ftp://example.com/file',
    'mailto:a@example.com',
    'blob:https://example.com/uuid',
    'about:blank',
    'intent://scan/#Intent;scheme=zxing;end',
  ])('rejects the non-http scheme of %s', (value) => {
    expect(rejection(() => url(value))).toBe('url: only http and https URLs are allowed');
  });

  it.each([
    ['leading spaces', '   javascript:alert(1)'],
    ['a leading tab', '\tjavascript:alert(1)'],
    ['a leading BOM', '\uFEFFjavascript:alert(1)'],
    ['a leading NBSP', '\u00A0javascript:alert(1)'],
  ])('rejects javascript: behind %s', (_, value) => {
    expect(rejection(() => url(value))).toBe('url: only http and https URLs are allowed');
  });

  it.each([
    ['a tab inside the scheme', 'java\tscript:alert(1)'],
    ['a newline inside the scheme', 'java\nscript:alert(1)'],
    ['a carriage return', 'java\rscript:alert(1)'],
    ['a leading control character', '\u0001javascript:alert(1)'],
    ['a NUL', 'javascript\u0000:alert(1)'],
    ['a C1 control', '\u0085javascript:alert(1)'],
    ['a DEL', 'https://exa\u007fmple.com'],
  ])('rejects %s', (_, value) => {
    expect(rejection(() => url(value))).toMatch(/^url: must (not contain control characters|be valid Unicode text)/);
  });

  it.each([
    '%6Aavascript:alert(1)',
    '%6A%61%76%61%73%63%72%69%70%74:alert(1)',
    '%6Aavascript:80',
    'javascript&colon;alert(1)',
    'javascript:1',
    'https:javascript:alert(1)',
    'https://javascript&colon;alert(1)',
  ])('rejects the disguised script URL %s', (value) => {
    expect(rejection(() => url(value))).toMatch(/^url: /);
  });

  it.each([
    ['no host', 'https://'],
    ['a word without a dot', 'hello'],
    ['spaces in the host', 'exa mple.com'],
    ['a host with odd characters', 'https://exa(mple).com'],
  ])('rejects a URL with %s', (_, value) => {
    expect(rejection(() => url(value))).toMatch(/^url: must /);
  });

  it('rejects credentials in the URL', () => {
    expect(rejection(() => url('https://bank.example@evil.test/'))).toBe('url: must not contain a user name or password');
    expect(rejection(() => url('https://user:pw@example.com/'))).toBe('url: must not contain a user name or password');
  });

  it('requires url', () => {
    expect(rejection(() => assemble('url', {}))).toBe('url: is required for contentType url');
    expect(rejection(() => assemble('url', { url: '   ' }))).toBe('url: is required for contentType url');
  });
});

describe('wifi payloads', () => {
  it('builds WIFI:T:<enc>;S:<ssid>;P:<pass>;;', () => {
    expect(assemble('wifi', { wifiSsid: 'Home', wifiPass: 'secret123', wifiEnc: 'WPA' })).toBe('WIFI:T:WPA;S:Home;P:secret123;;');
    expect(assemble('wifi', { wifiSsid: 'Old', wifiPass: 'abcde', wifiEnc: 'WEP' })).toBe('WIFI:T:WEP;S:Old;P:abcde;;');
  });

  it('defaults to WPA when a password is given', () => {
    expect(assemble('wifi', { wifiSsid: 'Home', wifiPass: 'secret123' })).toBe('WIFI:T:WPA;S:Home;P:secret123;;');
  });

  it('makes an open network when neither encryption nor password is given', () => {
    expect(assemble('wifi', { wifiSsid: 'Cafe' })).toBe('WIFI:T:nopass;S:Cafe;;');
  });

  it('omits the password of an open network', () => {
    expect(assemble('wifi', { wifiSsid: 'Cafe', wifiEnc: 'nopass', wifiPass: 'left over' })).toBe('WIFI:T:nopass;S:Cafe;;');
  });

  it('backslash-escapes \\ ; , : and "', () => {
    expect(assemble('wifi', { wifiSsid: 'a;b,c:d"e\\f', wifiPass: 'p;,:"\\' })).toBe(
      'WIFI:T:WPA;S:a\\;b\\,c\\:d\\"e\\\\f;P:p\\;\\,\\:\\"\\\\;;',
    );
  });

  it('keeps spaces in the network name and password', () => {
    expect(assemble('wifi', { wifiSsid: ' My Net ', wifiPass: ' pass ' })).toBe('WIFI:T:WPA;S: My Net ;P: pass ;;');
  });

  it('requires wifiSsid', () => {
    expect(rejection(() => assemble('wifi', { wifiPass: 'x' }))).toBe('wifiSsid: is required for contentType wifi');
    expect(rejection(() => assemble('wifi', { wifiSsid: ' ' }))).toBe('wifiSsid: is required for contentType wifi');
  });

  it('requires a password for WPA and WEP', () => {
    expect(rejection(() => assemble('wifi', { wifiSsid: 'x', wifiEnc: 'WPA' }))).toBe('wifiPass: is required when wifiEnc is WPA');
    expect(rejection(() => assemble('wifi', { wifiSsid: 'x', wifiEnc: 'WEP', wifiPass: '' }))).toBe(
      'wifiPass: is required when wifiEnc is WEP',
    );
  });

  it('rejects an unknown encryption', () => {
    const fields = { wifiSsid: 'x', wifiPass: 'y', wifiEnc: 'WPA3' } as unknown as TypedFields;
    expect(rejection(() => assemble('wifi', fields))).toBe('wifiEnc: must be one of WPA, WEP, nopass');
  });

  it('limits the network name to 32 bytes, as 802.11 does', () => {
    expect(assemble('wifi', { wifiSsid: 'x'.repeat(32) })).toContain('x'.repeat(32));
    expect(assemble('wifi', { wifiSsid: 'ü'.repeat(16) })).toContain('ü'.repeat(16));
    expect(rejection(() => assemble('wifi', { wifiSsid: 'x'.repeat(33) }))).toBe('wifiSsid: must be at most 32 bytes (UTF-8)');
    expect(rejection(() => assemble('wifi', { wifiSsid: 'ü'.repeat(17) }))).toMatch(/^wifiSsid: must be at most 32 bytes/);
  });
});

describe('parseWifiPayload', () => {
  it('reads what assemblePayload writes, for nasty values', () => {
    const nasty = ['a;b', 'c,d', 'e:f', 'g\\h', '"quoted"', 'line\nbreak', 'Ünïcødé', 'emoji 📶🎉', ';;', '\\', 'P:x;S:y'];
    for (const ssid of nasty) {
      for (const password of nasty) {
        const parsed = parseWifiPayload(assemble('wifi', { wifiSsid: ssid, wifiPass: password }));
        expect(parsed).toEqual({ ssid, password, encryption: 'WPA', hidden: false });
      }
    }
  });

  it('reads an open network', () => {
    expect(parseWifiPayload('WIFI:T:nopass;S:Cafe;;')).toEqual({ ssid: 'Cafe', password: '', encryption: 'nopass', hidden: false });
  });

  it('tolerates hand-written payloads: any order, lower case, no trailing ;;', () => {
    expect(parseWifiPayload('wifi:s:Home;p:pw;t:wpa')).toEqual({ ssid: 'Home', password: 'pw', encryption: 'WPA', hidden: false });
    expect(parseWifiPayload('  WIFI:P:pw;S:Home;T:WEP;H:true;;  ')).toEqual({
      ssid: 'Home',
      password: 'pw',
      encryption: 'WEP',
      hidden: true,
    });
  });

  it('strips double quotes around a value, but not escaped ones', () => {
    expect(parseWifiPayload('WIFI:T:WPA;S:"My Net";P:"pw";;')?.ssid).toBe('My Net');
    expect(parseWifiPayload('WIFI:T:WPA;S:\\"My Net\\";P:pw;;')?.ssid).toBe('"My Net"');
  });

  it('treats a missing T as open, unless a password is given', () => {
    expect(parseWifiPayload('WIFI:S:Cafe;;')?.encryption).toBe('nopass');
    expect(parseWifiPayload('WIFI:S:Home;P:pw;;')?.encryption).toBe('WPA');
  });

  it('keeps other encryption names as written', () => {
    expect(parseWifiPayload('WIFI:T:WPA2-EAP;S:Corp;P:x;;')?.encryption).toBe('WPA2-EAP');
  });

  it('keeps the first occurrence of a repeated key and skips unknown ones', () => {
    expect(parseWifiPayload('WIFI:S:one;S:two;X:junk;garbage;P:pw;;')).toMatchObject({ ssid: 'one', password: 'pw' });
  });

  it('returns null for anything that is not a Wi-Fi payload', () => {
    expect(parseWifiPayload('hello')).toBeNull();
    expect(parseWifiPayload('WIFI:T:WPA;P:pw;;')).toBeNull();
    expect(parseWifiPayload('WIFI:S:;;')).toBeNull();
    expect(parseWifiPayload('')).toBeNull();
  });

  it('round-trips any network name and password (property)', () => {
    const ssid = fc
      .string({ unit: 'grapheme', minLength: 1, maxLength: 12 })
      .filter((s) => s.trim() !== '' && new TextEncoder().encode(s).length <= 32 && !s.includes('\u0000'));
    const password = fc.string({ unit: 'grapheme', minLength: 1, maxLength: 40 }).filter((s) => !s.includes('\u0000'));
    const enc = fc.constantFrom('WPA' as const, 'WEP' as const, 'nopass' as const);
    fc.assert(
      fc.property(ssid, password, enc, (s, p, e) => {
        const parsed = parseWifiPayload(assemble('wifi', { wifiSsid: s, wifiPass: p, wifiEnc: e }));
        expect(parsed).toEqual({ ssid: s, password: e === 'nopass' ? '' : p, encryption: e, hidden: false });
      }),
      { numRuns: 500 },
    );
  });
});

describe('vcard payloads', () => {
  const full: TypedFields = {
    vcardFirstName: 'Jane',
    vcardLastName: 'Doe',
    vcardPhone: '+1 555 0100',
    vcardEmail: 'jane@example.com',
    vcardOrg: 'Acme Inc.',
    vcardWeb: 'https://example.com/jane',
  };

  it('builds a vCard 3.0 with CRLF lines', () => {
    expect(assemble('vcard', full)).toBe(
      [
        'BEGIN:VCARD',
        'VERSION:3.0',
        'N:Doe;Jane;;;',
        'FN:Jane Doe',
        'ORG:Acme Inc.',
        'TEL:+1 555 0100',
        'EMAIL:jane@example.com',
        'URL:https://example.com/jane',
        'END:VCARD',
        '',
      ].join('\r\n'),
    );
  });

  it('needs only a first or a last name', () => {
    expect(assemble('vcard', { vcardFirstName: 'Cher' })).toBe('BEGIN:VCARD\r\nVERSION:3.0\r\nN:;Cher;;;\r\nFN:Cher\r\nEND:VCARD\r\n');
    expect(assemble('vcard', { vcardLastName: 'Doe' })).toContain('\r\nN:Doe;;;;\r\nFN:Doe\r\n');
  });

  it('requires a first or last name', () => {
    const { vcardFirstName: _f, vcardLastName: _l, ...rest } = full;
    expect(rejection(() => assemble('vcard', rest))).toBe(
      'vcardFirstName: is required for contentType vcard unless vcardLastName is given',
    );
    expect(rejection(() => assemble('vcard', { vcardFirstName: ' ', vcardLastName: '' }))).toMatch(/^vcardFirstName: is required/);
  });

  it('escapes backslash, comma, semicolon and line breaks per RFC 2426', () => {
    const card = assemble('vcard', { vcardFirstName: 'a\\b,c;d', vcardOrg: 'x\r\ny\nz\rw' });
    expect(card).toContain('\r\nN:;a\\\\b\\,c\\;d;;;\r\n');
    expect(card).toContain('\r\nORG:x\\ny\\nz\\nw\r\n');
    expect(card.split('\r\n').every((line) => !/[\r\n]/.test(line))).toBe(true);
  });

  it('gives a bare website https:// and percent-encodes its commas and semicolons', () => {
    expect(assemble('vcard', { vcardLastName: 'Doe', vcardWeb: 'example.com/a,b;c' })).toContain(
      '\r\nURL:https://example.com/a%2Cb%3Bc\r\n',
    );
  });

  it('rejects a website that is not http(s)', () => {
    expect(rejection(() => assemble('vcard', { vcardLastName: 'Doe', vcardWeb: 'javascript:alert(1)' }))).toBe(
      'vcardWeb: only http and https URLs are allowed',
    );
  });

  it('rejects an email that is not an address', () => {
    expect(rejection(() => assemble('vcard', { vcardLastName: 'Doe', vcardEmail: 'not an email' }))).toBe(
      'vcardEmail: must be an email address like name@example.com',
    );
  });

  it('accepts vanity phone numbers but needs digits on one line', () => {
    expect(assemble('vcard', { vcardLastName: 'Doe', vcardPhone: '1-800-FLOWERS' })).toContain('TEL:1-800-FLOWERS');
    expect(rejection(() => assemble('vcard', { vcardLastName: 'Doe', vcardPhone: 'call me' }))).toBe(
      'vcardPhone: must contain at least 3 digits',
    );
    expect(rejection(() => assemble('vcard', { vcardLastName: 'Doe', vcardPhone: '123\n456' }))).toBe('vcardPhone: must be a single line');
  });

  it('treats blank optional fields as absent', () => {
    expect(assemble('vcard', { vcardLastName: 'Doe', vcardOrg: '  ', vcardPhone: '', vcardWeb: '' })).toBe(
      'BEGIN:VCARD\r\nVERSION:3.0\r\nN:Doe;;;;\r\nFN:Doe\r\nEND:VCARD\r\n',
    );
  });
});

describe('parseVcardPayload', () => {
  it('reads what assemblePayload writes, for nasty values', () => {
    const nasty = ['a;b', 'c,d', 'e:f', 'g\\h', '"q"', 'x\\;y', 'Ünïcødé', 'emoji 🧑‍💻', '\\n', 'BEGIN:VCARD'];
    for (const value of nasty) {
      const card = assemble('vcard', {
        vcardFirstName: value,
        vcardLastName: `${value}2`,
        vcardOrg: value,
        vcardPhone: `+1 555 ${value}`,
        vcardEmail: 'jane@example.com',
        vcardWeb: 'https://example.com/',
      });
      expect(parseVcardPayload(card)).toEqual({
        firstName: value,
        lastName: `${value}2`,
        fullName: `${value} ${value}2`,
        org: value,
        phone: `+1 555 ${value}`,
        email: 'jane@example.com',
        web: 'https://example.com/',
      });
    }
  });

  it('gives back multi-line values with LF line breaks', () => {
    const card = assemble('vcard', { vcardLastName: 'Doe', vcardOrg: 'Line 1\r\nLine 2' });
    expect(parseVcardPayload(card)?.org).toBe('Line 1\nLine 2');
  });

  it('tolerates hand-written cards: LF, folding, groups, parameters, no BEGIN/END', () => {
    const card = [
      'FN:Dr. Jane',
      '  Doe',
      'item1.TEL;TYPE=CELL,VOICE:+49 151 0000',
      'EMAIL;TYPE="internet,pref":jane@example.com',
      'ORG:Acme;Research',
      'url:https://example.com',
    ].join('\n');
    expect(parseVcardPayload(card)).toEqual({
      firstName: '',
      lastName: '',
      fullName: 'Dr. Jane Doe',
      org: 'Acme, Research',
      phone: '+49 151 0000',
      email: 'jane@example.com',
      web: 'https://example.com',
    });
  });

  it('falls back to N when FN is missing and keeps the first TEL', () => {
    const card = 'BEGIN:VCARD\r\nVERSION:2.1\r\nN:Doe;John;;Mr.;\r\nTEL:111\r\nTEL:222\r\nEND:VCARD';
    expect(parseVcardPayload(card)).toMatchObject({ firstName: 'John', lastName: 'Doe', fullName: 'John Doe', phone: '111' });
  });

  it('returns null when no contact property is present', () => {
    expect(parseVcardPayload('just some text')).toBeNull();
    expect(parseVcardPayload('BEGIN:VCARD\r\nVERSION:3.0\r\nEND:VCARD')).toBeNull();
    expect(parseVcardPayload('')).toBeNull();
  });

  it('round-trips any names and organisation (property)', () => {
    const text = fc.string({ unit: 'grapheme', minLength: 1, maxLength: 30 }).filter((s) => s.trim() !== '' && !s.includes('\u0000'));
    fc.assert(
      fc.property(text, text, text, (first, last, org) => {
        const parsed = parseVcardPayload(assemble('vcard', { vcardFirstName: first, vcardLastName: last, vcardOrg: org }));
        const clean = (s: string) => s.trim().replace(/\r\n|\r/g, '\n');
        expect(parsed).toMatchObject({ firstName: clean(first), lastName: clean(last), org: clean(org) });
        expect(parsed?.fullName).toBe(`${clean(first)} ${clean(last)}`);
      }),
      { numRuns: 500 },
    );
  });

  it('unescapes what escapeVcardText escapes (property)', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary' }), (s) => {
        expect(unescapeVcardText(escapeVcardText(s))).toBe(s.replace(/\r\n|\r/g, '\n'));
      }),
      { numRuns: 1000 },
    );
  });
});

describe('whatsapp payloads', () => {
  it('builds a wa.me link from the digits of the number', () => {
    expect(assemble('whatsapp', { waNumber: '+49 (151) 234-567 89' })).toBe('https://wa.me/4915123456789');
  });

  it('percent-encodes the message', () => {
    expect(assemble('whatsapp', { waNumber: '+15550100', waMessage: 'Hi & bye? 50% #1 😀\nok' })).toBe(
      'https://wa.me/15550100?text=Hi%20%26%20bye%3F%2050%25%20%231%20%F0%9F%98%80%0Aok',
    );
    expect(assemble('whatsapp', { waNumber: '+15550100', waMessage: '  ' })).toBe('https://wa.me/15550100');
  });

  it('reads a leading 00 as the international prefix', () => {
    expect(assemble('whatsapp', { waNumber: '0049 151 234567' })).toBe('https://wa.me/49151234567');
  });

  it('accepts 6 to 15 digits', () => {
    expect(assemble('whatsapp', { waNumber: '123456' })).toBe('https://wa.me/123456');
    expect(assemble('whatsapp', { waNumber: '123456789012345' })).toBe('https://wa.me/123456789012345');
    expect(rejection(() => assemble('whatsapp', { waNumber: '12345' }))).toBe('waNumber: must have 6 to 15 digits');
    expect(rejection(() => assemble('whatsapp', { waNumber: '1234567890123456' }))).toBe('waNumber: must have 6 to 15 digits');
  });

  it('rejects letters and requires the number', () => {
    expect(rejection(() => assemble('whatsapp', { waNumber: 'call +49 151 234567' }))).toMatch(/^waNumber: must be a phone number/);
    expect(rejection(() => assemble('whatsapp', { waMessage: 'hi' }))).toBe('waNumber: is required for contentType whatsapp');
  });
});

describe('text payloads', () => {
  it('keeps the text exactly as given', () => {
    expect(assemble('text', { text: '  Hello <b>world</b>\r\n😀  ' })).toBe('  Hello <b>world</b>\r\n😀  ');
  });

  it('requires text', () => {
    expect(rejection(() => assemble('text', {}))).toBe('text: is required for contentType text');
    expect(rejection(() => assemble('text', { text: ' \n ' }))).toBe('text: is required for contentType text');
  });
});

describe('email payloads', () => {
  it('builds a mailto: link', () => {
    expect(assemble('email', { emailTo: 'jane@example.com' })).toBe('mailto:jane@example.com');
  });

  it('percent-encodes subject and body per RFC 6068, with CRLF line breaks', () => {
    expect(assemble('email', { emailTo: 'jane@example.com', emailSubject: 'Hi & ? = #', emailBody: 'l1\nl2 ü+' })).toBe(
      'mailto:jane@example.com?subject=Hi%20%26%20%3F%20%3D%20%23&body=l1%0D%0Al2%20%C3%BC%2B',
    );
    expect(assemble('email', { emailTo: 'jane@example.com', emailBody: 'only body' })).toBe('mailto:jane@example.com?body=only%20body');
  });

  it('encodes delimiters inside the address but keeps + literal', () => {
    expect(assemble('email', { emailTo: 'a+tag@example.com' })).toBe('mailto:a+tag@example.com');
    expect(assemble('email', { emailTo: 'a%b?c&d=e#f@example.com' })).toBe('mailto:a%25b%3Fc%26d%3De%23f@example.com');
  });

  it('accepts several comma-separated recipients', () => {
    expect(assemble('email', { emailTo: 'a@example.com, b@example.org' })).toBe('mailto:a@example.com,b@example.org');
  });

  it.each(['jane', 'jane@', '@example.com', 'jane@localhost', 'ja ne@example.com', 'a@b.c', 'a@example.com,', 'a..b@example.com'])(
    'rejects %s as emailTo',
    (to) => {
      expect(rejection(() => assemble('email', { emailTo: to }))).toBe('emailTo: must be an email address like name@example.com');
    },
  );

  it('requires emailTo and a single-line subject', () => {
    expect(rejection(() => assemble('email', { emailSubject: 'x' }))).toBe('emailTo: is required for contentType email');
    expect(rejection(() => assemble('email', { emailTo: 'a@example.com', emailSubject: 'a\r\nBcc: x@evil.test' }))).toBe(
      'emailSubject: must be a single line',
    );
  });
});

describe('text that cannot be stored', () => {
  it('rejects NUL characters and lone surrogates in any typed field', () => {
    expect(rejection(() => assemble('text', { text: 'a\u0000b' }))).toBe('text: must be valid Unicode text without NUL characters');
    expect(rejection(() => assemble('whatsapp', { waNumber: '123456', waMessage: 'x\uD800' }))).toMatch(/^waMessage: /);
    // Fields of other kinds are stored too, so they are checked as well.
    expect(rejection(() => assemble('url', { url: 'example.com', emailBody: '\uDC00' }))).toMatch(/^emailBody: /);
  });

  it('rejects them in a raw payload', () => {
    expect(rejection(() => validatePayload('text', 'a\u0000'))).toMatch(/^payload: /);
    expect(rejection(() => validatePayload('text', '\uD83D'))).toMatch(/^payload: /);
    expect(validatePayload('text', '\uD83D\uDE00')).toBe('😀');
  });
});

describe('validatePayload', () => {
  it('keeps text, wifi and vcard payloads as given', () => {
    expect(validatePayload('text', ' hi ')).toBe(' hi ');
    expect(validatePayload('wifi', 'WIFI:S:x;;')).toBe('WIFI:S:x;;');
    expect(validatePayload('vcard', 'FN:Jane')).toBe('FN:Jane');
  });

  it('rejects an empty payload', () => {
    for (const kind of CONTENT_TYPES) {
      expect(rejection(() => validatePayload(kind, '  '))).toBe('payload: must not be empty');
    }
  });

  it('validates and normalizes a url payload', () => {
    expect(validatePayload('url', 'example.com/x')).toBe('https://example.com/x');
    expect(rejection(() => validatePayload('url', 'JaVaScRiPt:alert(1)'))).toBe('payload: only http and https URLs are allowed');
    expect(rejection(() => validatePayload('url', 'java\tscript:alert(1)'))).toBe('payload: must not contain control characters');
  });

  it('accepts wa.me links for whatsapp and nothing else', () => {
    expect(validatePayload('whatsapp', 'https://wa.me/15550100?text=hi')).toBe('https://wa.me/15550100?text=hi');
    expect(validatePayload('whatsapp', 'wa.me/15550100')).toBe('https://wa.me/15550100');
    expect(validatePayload('whatsapp', 'https://api.whatsapp.com/send?phone=15550100')).toBe(
      'https://api.whatsapp.com/send?phone=15550100',
    );
    for (const bad of [
      'javascript:alert(1)',
      'https://example.com/',
      'http://wa.me/1555',
      'https://wa.me.evil.test/1',
      'whatsapp://send?phone=1',
    ]) {
      expect(rejection(() => validatePayload('whatsapp', bad))).toMatch(/^payload: /);
    }
  });

  it('accepts mailto: links for email and nothing else', () => {
    expect(validatePayload('email', 'mailto:a@example.com?subject=Hi')).toBe('mailto:a@example.com?subject=Hi');
    expect(validatePayload('email', 'MAILTO:a@example.com')).toBe('mailto:a@example.com');
    expect(validatePayload('email', 'mailto:a@example.com?subject=hä llo')).toBe('mailto:a@example.com?subject=h%C3%A4%20llo');
    for (const bad of ['javascript:alert(1)//mailto:', 'a@example.com', 'https://example.com', ' mailto\t:a@b.c']) {
      expect(rejection(() => validatePayload('email', bad))).toMatch(/^payload: must be a mailto: link/);
    }
    expect(rejection(() => validatePayload('email', 'mailto:a@b.com\r\nX-Evil: 1'))).toBe('payload: must not contain control characters');
  });
});

describe('the 4000-character bound', () => {
  const max = PAYLOAD_MAX_LENGTH;
  const tooLong = 'payload: must be at most 4000 characters';

  it('is 4000', () => {
    expect(max).toBe(4000);
  });

  it('holds for raw payloads, counting code points', () => {
    expect(validatePayload('text', 'x'.repeat(max))).toHaveLength(max);
    expect(rejection(() => validatePayload('text', 'x'.repeat(max + 1)))).toBe(tooLong);
    expect(validatePayload('text', '😀'.repeat(max))).toHaveLength(2 * max);
    expect(rejection(() => validatePayload('text', '😀'.repeat(max + 1)))).toBe(tooLong);
  });

  it('holds for raw URLs after normalization', () => {
    const base = 'https://example.com/';
    expect(validatePayload('url', base + 'a'.repeat(max - base.length))).toHaveLength(max);
    expect(rejection(() => validatePayload('url', base + 'a'.repeat(max - base.length + 1)))).toBe(tooLong);
    // Percent-encoding may push a URL over the bound.
    expect(rejection(() => validatePayload('url', base + 'ü'.repeat(700)))).toBe(tooLong);
  });

  it('holds for assembled payloads', () => {
    expect(assemble('text', { text: 'x'.repeat(max) })).toHaveLength(max);
    expect(rejection(() => assemble('text', { text: 'x'.repeat(max + 1) }))).toBe(tooLong);
    const prefix = 'https://wa.me/15550100?text=';
    expect(assemble('whatsapp', { waNumber: '15550100', waMessage: 'a'.repeat(max - prefix.length) })).toHaveLength(max);
    expect(rejection(() => assemble('whatsapp', { waNumber: '15550100', waMessage: 'a'.repeat(max - prefix.length + 1) }))).toBe(tooLong);
    // Escaping counts: 2000 semicolons become 4000 characters.
    expect(rejection(() => assemble('wifi', { wifiSsid: 'x', wifiPass: ';'.repeat(2000) }))).toBe(tooLong);
  });
});

describe('any input (property)', () => {
  // A redirect target ends up in the Location header: printable ASCII only, allowed scheme only.
  const headerSafe = /^[\x21-\x7e]+$/;
  const redirectScheme: Partial<Record<ContentType, RegExp>> = {
    url: /^https?:\/\//,
    whatsapp: /^https:\/\/(wa\.me|api\.whatsapp\.com)\//,
    email: /^mailto:/,
  };
  const kind = fc.constantFrom(...CONTENT_TYPES);
  const nasty = fc.oneof(
    fc.string({ unit: 'binary' }),
    fc.constantFrom('javascript:alert(1)', ' JAVA\tSCRIPT:x', 'data:,x', '%6Aavascript:1', 'wa.me/123456', 'mailto:a@b.co', 'example.com'),
    fc.tuple(fc.constantFrom('https://', 'mailto:', 'https://wa.me/', ''), fc.string({ unit: 'binary' })).map(([a, b]) => a + b),
  );

  function expectSafeOutcome(contentType: ContentType, run: () => string): void {
    let out: string;
    try {
      out = run();
    } catch (e) {
      expect(e).toBeInstanceOf(ValidationError);
      expect((e as Error).message).toMatch(/^[A-Za-z]+: /);
      return;
    }
    expect([...out].length).toBeLessThanOrEqual(PAYLOAD_MAX_LENGTH);
    const scheme = redirectScheme[contentType];
    if (scheme !== undefined) {
      expect(out).toMatch(headerSafe);
      expect(out).toMatch(scheme);
    }
  }

  it('validatePayload accepts or answers a ValidationError, and redirect targets are safe', () => {
    fc.assert(
      fc.property(kind, nasty, (k, payload) => expectSafeOutcome(k, () => validatePayload(k, payload))),
      {
        numRuns: 2000,
      },
    );
  });

  it('assemblePayload accepts or answers a ValidationError, and redirect targets are safe', () => {
    const fields = fc.record(
      Object.fromEntries(TYPED_FIELDS.map((f) => [f, f === 'wifiEnc' ? fc.constantFrom('WPA', 'WEP', 'nopass') : nasty])) as {
        [K in keyof TypedFields]-?: fc.Arbitrary<string>;
      },
      { requiredKeys: [] },
    );
    fc.assert(
      fc.property(kind, fields, (k, f) => expectSafeOutcome(k, () => assemblePayload(k, f as TypedFields))),
      {
        numRuns: 2000,
      },
    );
  });
});
