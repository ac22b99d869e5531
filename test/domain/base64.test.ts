import fc from 'fast-check';
import { describe, it } from 'vitest';
import { decodeBase64, encodeBase64 } from '../../src/domain/base64.ts';

describe('base64 without Buffer', () => {
  it('encodes every byte string as Buffer does', () => {
    fc.assert(fc.property(fc.uint8Array({ maxLength: 20_000 }), (bytes) => encodeBase64(bytes) === Buffer.from(bytes).toString('base64')));
  });

  it('decodes as Buffer does, with or without padding, and drops a dangling sixth', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 5000 }), fc.integer({ min: 0, max: 3 }), (bytes, cut) => {
        const text = Buffer.from(bytes).toString('base64');
        const trimmed = text.slice(0, Math.max(0, text.length - cut));
        return Buffer.from(decodeBase64(trimmed)).equals(Buffer.from(trimmed, 'base64'));
      }),
    );
  });
});
