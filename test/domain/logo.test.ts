import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { ValidationError } from '../../src/domain/errors.ts';
import { checkLogoShape, parseLogoDataUrl } from '../../src/domain/design/logo.ts';
import {
  JPEG_BOMB,
  JPEG_PROGRESSIVE_BOMB,
  JPEG_SECOND_FRAME_BOMB,
  jpegClaiming,
  PNG_HEADER_BOMB,
  pngBombDataUrl,
  pngClaiming,
  SVG_NESTED_JPEG_BOMB_SVG,
  svgDataUrl,
} from '../support/hostile-logos.ts';

const KIB = 1024;
/** Real headers (the size is read from them), padded with junk by `sized`. */
const PNG_MAGIC = pngClaiming(64, 64);
const JPEG_MAGIC = jpegClaiming(64, 64);
const SVG = '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10"><circle cx="5" cy="5" r="4" fill="#f00"/></svg>';

const dataUrl = (type: string, bytes: Buffer) => `data:${type};base64,${bytes.toString('base64')}`;
const sized = (magic: Buffer, total: number) => Buffer.concat([magic, Buffer.alloc(total - magic.length, 7)]);

function rejection(value: string): string {
  try {
    parseLogoDataUrl('customLogoUrl', value);
  } catch (err) {
    expect(err).toBeInstanceOf(ValidationError);
    return (err as Error).message;
  }
  throw new Error('expected a ValidationError');
}

describe('parseLogoDataUrl', () => {
  it('accepts a WebP logo as it is (the renderer turns it into PNG for the rasterizer)', async () => {
    const webp = await sharp({ create: { width: 48, height: 32, channels: 4, background: '#1a73e8' } })
      .webp()
      .toBuffer();
    const logo = parseLogoDataUrl('customLogoUrl', dataUrl('image/webp', webp));
    expect(logo.mediaType).toBe('image/webp');
    expect(logo.dataUrl).toBe(dataUrl('image/webp', webp));
  });

  it('accepts PNG and JPEG base64 data URLs and returns their bytes', () => {
    for (const [type, magic] of [
      ['image/png', PNG_MAGIC],
      ['image/jpeg', JPEG_MAGIC],
    ] as const) {
      const bytes = sized(magic, 1024);
      const logo = parseLogoDataUrl('customLogoUrl', dataUrl(type, bytes));
      expect(logo.mediaType).toBe(type);
      expect(Buffer.from(logo.bytes).equals(bytes)).toBe(true);
      expect(logo.dataUrl).toBe(dataUrl(type, bytes));
    }
  });

  it('accepts an upper-case media type and normalises it', () => {
    expect(parseLogoDataUrl('f', dataUrl('IMAGE/PNG', sized(PNG_MAGIC, 1024))).mediaType).toBe('image/png');
  });

  it('accepts exactly 512 KiB and rejects one byte more', () => {
    expect(parseLogoDataUrl('f', dataUrl('image/png', sized(PNG_MAGIC, 512 * KIB))).bytes.length).toBe(512 * KIB);
    expect(rejection(dataUrl('image/png', sized(PNG_MAGIC, 512 * KIB + 1)))).toBe('customLogoUrl: the image must be at most 512 KiB');
  });

  it('rejects remote URLs and other schemes without fetching anything', () => {
    for (const url of [
      'https://example.com/logo.png',
      'http://127.0.0.1/logo.png',
      'file:///etc/passwd',
      'javascript:alert(1)',
      'blob:https://x/1',
      '//example.com/a.png',
      'logo.png',
    ]) {
      expect(rejection(url)).toBe('customLogoUrl: must be a data: URL (remote URLs are not fetched)');
    }
  });

  it('rejects other media types', () => {
    for (const type of ['image/gif', 'text/html', 'image/svg', 'application/octet-stream', '']) {
      expect(rejection(dataUrl(type, sized(PNG_MAGIC, 1024)))).toBe(
        'customLogoUrl: media type must be image/png, image/jpeg, image/webp or image/svg+xml',
      );
    }
  });

  it('rejects bad base64', () => {
    expect(rejection('data:image/png;base64,iVBOR@@@w0KGgo=')).toBe('customLogoUrl: must be valid base64');
    expect(rejection('data:image/png;base64,A')).toBe('customLogoUrl: must be valid base64');
  });

  it('rejects data whose magic bytes do not match the media type', () => {
    expect(rejection(dataUrl('image/png', sized(JPEG_MAGIC, 1024)))).toBe(
      'customLogoUrl: the data is not a PNG image, though its media type is image/png',
    );
    expect(rejection(dataUrl('image/jpeg', sized(PNG_MAGIC, 1024)))).toBe(
      'customLogoUrl: the data is not a JPEG image, though its media type is image/jpeg',
    );
    expect(rejection(dataUrl('image/webp', Buffer.from('RIFF0000WAVEfmt ')))).toBe(
      'customLogoUrl: the data is not a WebP image, though its media type is image/webp',
    );
  });

  it('rejects empty images and raster images that are not base64', () => {
    expect(rejection('data:image/png;base64,')).toBe('customLogoUrl: the image is empty');
    expect(rejection('data:image/png,%89PNG')).toBe('customLogoUrl: raster images must be base64-encoded');
  });

  it('names the field it was given', () => {
    expect(() => parseLogoDataUrl('design.customLogoUrl', 'https://x')).toThrow(/^design\.customLogoUrl: /);
  });

  it('accepts SVG as base64, percent-encoded and plain UTF-8, always returning sanitized base64', () => {
    const forms = [
      dataUrl('image/svg+xml', Buffer.from(SVG)),
      `data:image/svg+xml;charset=utf-8,${encodeURIComponent(SVG)}`,
      `data:image/svg+xml,${SVG.replace(/#/g, '%23')}`,
    ];
    for (const form of forms) {
      const logo = parseLogoDataUrl('customLogoUrl', form);
      expect(logo.mediaType).toBe('image/svg+xml');
      expect(logo.dataUrl.startsWith('data:image/svg+xml;base64,')).toBe(true);
      expect(new TextDecoder().decode(logo.bytes)).toContain('<circle cx="5" cy="5" r="4" fill="#f00"/>');
    }
  });

  it('rejects SVG that is not well-formed XML, has no <svg> root, or declares a DOCTYPE', () => {
    expect(rejection(dataUrl('image/svg+xml', Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"><g></svg>')))).toMatch(
      /^customLogoUrl: SVG rejected: not well-formed XML/,
    );
    expect(rejection(dataUrl('image/svg+xml', Buffer.from('<html xmlns="http://www.w3.org/1999/xhtml"/>')))).toMatch(
      /^customLogoUrl: SVG rejected/,
    );
    const xxe =
      '<?xml version="1.0"?><!DOCTYPE svg [<!ENTITY x SYSTEM "file:///etc/passwd">]><svg xmlns="http://www.w3.org/2000/svg"><text>&x;</text></svg>';
    expect(rejection(dataUrl('image/svg+xml', Buffer.from(xxe)))).toBe(
      'customLogoUrl: SVG rejected: DOCTYPE and entity declarations are not allowed',
    );
  });

  it('refuses raster logos whose headers claim more than 16 megapixels, naming the size and the limit', () => {
    const limit = 'at most 16 megapixels (8192 px a side) are allowed';
    expect(rejection(JPEG_BOMB)).toBe(`customLogoUrl: the image is 65500×65500 pixels; ${limit}`);
    expect(rejection(JPEG_PROGRESSIVE_BOMB)).toBe(`customLogoUrl: the image is 65500×65500 pixels; ${limit}`);
    expect(rejection(JPEG_SECOND_FRAME_BOMB)).toBe(`customLogoUrl: the image is 65500×65500 pixels; ${limit}`);
    expect(rejection(pngBombDataUrl())).toBe(`customLogoUrl: the image is 30000×30000 pixels; ${limit}`);
    expect(rejection(PNG_HEADER_BOMB)).toBe(`customLogoUrl: the image is 30000×30000 pixels; ${limit}`);
    expect(rejection(dataUrl('image/png', pngClaiming(9000, 10)))).toBe(`customLogoUrl: the image is 9000×10 pixels; ${limit}`);
    expect(rejection(dataUrl('image/png', pngClaiming(4097, 4096, 1)))).toBe(`customLogoUrl: the image is 4097×4096 pixels; ${limit}`);
  });

  it('accepts a raster logo of exactly 16 megapixels', () => {
    expect(parseLogoDataUrl('f', dataUrl('image/png', pngClaiming(4096, 4096, 1))).mediaType).toBe('image/png');
    expect(parseLogoDataUrl('f', dataUrl('image/jpeg', jpegClaiming(8192, 2048))).mediaType).toBe('image/jpeg');
  });

  it('refuses a raster logo whose header cannot be read', () => {
    expect(rejection(dataUrl('image/png', sized(PNG_MAGIC.subarray(0, 8), 64)))).toBe('customLogoUrl: the image header cannot be read');
    expect(rejection(dataUrl('image/jpeg', Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0, 2, 0xff, 0xd9])))).toBe(
      'customLogoUrl: the image header cannot be read',
    );
  });

  it('refuses a raster bomb embedded in an SVG logo', () => {
    expect(rejection(svgDataUrl(SVG_NESTED_JPEG_BOMB_SVG))).toBe(
      'customLogoUrl: SVG rejected: an embedded image: the image is 65500×65500 pixels; at most 16 megapixels (8192 px a side) are allowed',
    );
  });

  it('reads a data: URL header in linear time, even 700 KB of parameters or base64 without a comma', () => {
    expect(rejection(`data:image/png${';a=b'.repeat(60_000)}`)).toBe('customLogoUrl: must be a data: URL (remote URLs are not fetched)');
    expect(rejection(`data:image/png;base64,${'A'.repeat(690_000)}@`)).toBe('customLogoUrl: must be valid base64');
  });

  it('refuses base64 of more than 512 KiB by its length, before decoding it, as checkLogoShape does for a batch', () => {
    const over = `data:image/png;base64,${'A'.repeat(((512 * KIB) / 3) * 4 + 8)}`;
    expect(rejection(over)).toBe('customLogoUrl: the image must be at most 512 KiB');
    expect(() => checkLogoShape('customLogoUrl', over)).toThrow('customLogoUrl: the image must be at most 512 KiB');
    // Whitespace does not count; exactly 512 KiB passes the shape check.
    expect(() => checkLogoShape('customLogoUrl', `data:image/png;base64,${'AAAA \n'.repeat((512 * KIB) / 3)}`)).not.toThrow();
    expect(() => checkLogoShape('customLogoUrl', 'https://example.com/logo.png')).toThrow(
      'customLogoUrl: must be a data: URL (remote URLs are not fetched)',
    );
    expect(() => checkLogoShape('customLogoUrl', 'data:image/png,rawbytes')).toThrow('customLogoUrl: raster images must be base64-encoded');
  });

  it('rejects bad percent-encoding in a text SVG', () => {
    expect(rejection('data:image/svg+xml,%E0%A4%A')).toBe('customLogoUrl: must be valid percent-encoded UTF-8');
  });
});
