import { describe, expect, it } from 'vitest';
import { ValidationError } from '../../src/domain/errors.ts';
import { parseLogoDataUrl } from '../../src/domain/logo.ts';

const KIB = 1024;
const PNG_MAGIC = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
const JPEG_MAGIC = Buffer.from([0xff, 0xd8, 0xff, 0xe0]);
const WEBP_MAGIC = Buffer.concat([Buffer.from('RIFF'), Buffer.from([0, 0, 0, 0]), Buffer.from('WEBPVP8L')]);
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
  it('refuses WebP logos, which the PNG rasterizer cannot draw', () => {
    expect(rejection(dataUrl('image/webp', sized(WEBP_MAGIC, 64)))).toBe('customLogoUrl: WebP logos are not supported yet; use PNG, JPEG or SVG');
  });

  it('accepts PNG and JPEG base64 data URLs and returns their bytes', () => {
    for (const [type, magic] of [['image/png', PNG_MAGIC], ['image/jpeg', JPEG_MAGIC]] as const) {
      const bytes = sized(magic, 64);
      const logo = parseLogoDataUrl('customLogoUrl', dataUrl(type, bytes));
      expect(logo.mediaType).toBe(type);
      expect(logo.bytes.equals(bytes)).toBe(true);
      expect(logo.dataUrl).toBe(dataUrl(type, bytes));
    }
  });

  it('accepts an upper-case media type and normalises it', () => {
    expect(parseLogoDataUrl('f', dataUrl('IMAGE/PNG', sized(PNG_MAGIC, 16))).mediaType).toBe('image/png');
  });

  it('accepts exactly 512 KiB and rejects one byte more', () => {
    expect(parseLogoDataUrl('f', dataUrl('image/png', sized(PNG_MAGIC, 512 * KIB))).bytes.length).toBe(512 * KIB);
    expect(rejection(dataUrl('image/png', sized(PNG_MAGIC, 512 * KIB + 1)))).toBe('customLogoUrl: the image must be at most 512 KiB');
  });

  it('rejects remote URLs and other schemes without fetching anything', () => {
    for (const url of ['https://example.com/logo.png', 'http://127.0.0.1/logo.png', 'file:///etc/passwd', 'javascript:alert(1)', 'blob:https://x/1', '//example.com/a.png', 'logo.png']) {
      expect(rejection(url)).toBe('customLogoUrl: must be a data: URL (remote URLs are not fetched)');
    }
  });

  it('rejects other media types', () => {
    for (const type of ['image/gif', 'text/html', 'image/svg', 'application/octet-stream', '']) {
      expect(rejection(dataUrl(type, sized(PNG_MAGIC, 16)))).toBe(
        'customLogoUrl: media type must be image/png, image/jpeg, image/webp or image/svg+xml',
      );
    }
  });

  it('rejects bad base64', () => {
    expect(rejection('data:image/png;base64,iVBOR@@@w0KGgo=')).toBe('customLogoUrl: must be valid base64');
    expect(rejection('data:image/png;base64,A')).toBe('customLogoUrl: must be valid base64');
  });

  it('rejects data whose magic bytes do not match the media type', () => {
    expect(rejection(dataUrl('image/png', sized(JPEG_MAGIC, 32)))).toBe('customLogoUrl: the data is not a image/png image');
    expect(rejection(dataUrl('image/jpeg', sized(PNG_MAGIC, 32)))).toBe('customLogoUrl: the data is not a image/jpeg image');
    expect(rejection(dataUrl('image/webp', Buffer.from('RIFF0000WAVEfmt ')))).toBe('customLogoUrl: the data is not a image/webp image');
  });

  it('rejects empty images and raster images that are not base64', () => {
    expect(rejection('data:image/png;base64,')).toBe('customLogoUrl: the image is empty');
    expect(rejection('data:image/png,%89PNG')).toBe('customLogoUrl: raster images must be base64-encoded');
  });

  it('names the field it was given', () => {
    expect(() => parseLogoDataUrl('design.customLogoUrl', 'https://x')).toThrow(/^design\.customLogoUrl: /);
  });

  it('accepts SVG as base64, percent-encoded and plain UTF-8, always returning sanitized base64', () => {
    const forms = [dataUrl('image/svg+xml', Buffer.from(SVG)), `data:image/svg+xml;charset=utf-8,${encodeURIComponent(SVG)}`, `data:image/svg+xml,${SVG.replace(/#/g, '%23')}`];
    for (const form of forms) {
      const logo = parseLogoDataUrl('customLogoUrl', form);
      expect(logo.mediaType).toBe('image/svg+xml');
      expect(logo.dataUrl.startsWith('data:image/svg+xml;base64,')).toBe(true);
      expect(logo.bytes.toString()).toContain('<circle cx="5" cy="5" r="4" fill="#f00"/>');
    }
  });

  it('rejects SVG that is not well-formed XML, has no <svg> root, or declares a DOCTYPE', () => {
    expect(rejection(dataUrl('image/svg+xml', Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"><g></svg>')))).toMatch(/^customLogoUrl: SVG rejected: not well-formed XML/);
    expect(rejection(dataUrl('image/svg+xml', Buffer.from('<html xmlns="http://www.w3.org/1999/xhtml"/>')))).toMatch(/^customLogoUrl: SVG rejected/);
    const xxe = '<?xml version="1.0"?><!DOCTYPE svg [<!ENTITY x SYSTEM "file:///etc/passwd">]><svg xmlns="http://www.w3.org/2000/svg"><text>&x;</text></svg>';
    expect(rejection(dataUrl('image/svg+xml', Buffer.from(xxe)))).toBe('customLogoUrl: SVG rejected: DOCTYPE and entity declarations are not allowed');
  });

  it('rejects bad percent-encoding in a text SVG', () => {
    expect(rejection('data:image/svg+xml,%E0%A4%A')).toBe('customLogoUrl: must be valid percent-encoded UTF-8');
  });
});
