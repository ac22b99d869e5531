// QR matrix step, kept apart from drawing: the `qrcode` package encodes the text
// (segments, version, mask); everything visual happens later on this plain grid.
import QRCode from 'qrcode';
import AlignmentPattern from 'qrcode/lib/core/alignment-pattern.js';
import ECLevel from 'qrcode/lib/core/error-correction-level.js';
import Segments from 'qrcode/lib/core/segments.js';
import Version from 'qrcode/lib/core/version.js';
import { ValidationError } from '../domain/errors.ts';
import type { ErrorCorrectionLevel } from '../domain/design/design.ts';

export interface QrMatrix {
  /** Modules per side (21 for version 1 … 177 for version 40). */
  size: number;
  version: number;
  /** Row-major, 1 = dark module. */
  dark: Uint8Array;
}

/** Encodes `data`; text too long for the level is a 400 naming `field`. */
export function createQrMatrix(data: string, level: ErrorCorrectionLevel, field = 'data'): QrMatrix {
  let qr: QRCode.QRCode;
  try {
    qr = QRCode.create(data, { errorCorrectionLevel: level });
  } catch (err) {
    const reason = err instanceof Error && /too big/i.test(err.message) ? 'too long to encode in a QR code' : 'cannot be encoded';
    throw new ValidationError(`${field}: ${reason} at error-correction level ${level}`);
  }
  return { size: qr.modules.size, version: qr.version, dark: qr.modules.data };
}

/**
 * The version `data` encodes at (null when too long), as createQrMatrix would pick it but
 * without building and masking the matrix: a tenth of the cost, for the scan warnings.
 * Remembered per text shape (ASCII class or UTF-8 length of each character), which is
 * all the encoder's segmentation looks at: a batch of short links shares one entry.
 */
export function qrVersion(data: string, level: ErrorCorrectionLevel): number | null {
  const key = `${level}${textShape(data)}`;
  let version = versions.get(key);
  if (version === undefined) {
    version = Version.getBestVersionForData(Segments.fromString(data, 40), ECLevel[level]) ?? null;
    if (versions.size >= VERSION_CACHE_LIMIT) versions.delete(versions.keys().next().value as string);
    versions.set(key, version);
  }
  return version;
}

const versions = new Map<string, number | null>();
const VERSION_CACHE_LIMIT = 64;
const encoder = new TextEncoder();

function textShape(data: string): string {
  let shape = '';
  for (const ch of data) {
    if (ch >= '0' && ch <= '9') shape += '0';
    else if (/[A-Z $%*+\-./:]/.test(ch)) shape += 'A';
    else if (ch.charCodeAt(0) < 0x80) shape += 'b';
    else shape += String(encoder.encode(ch).length);
  }
  return shape;
}

/** Centres of a version's alignment patterns (5×5 modules each), as [x, y]. */
export function alignmentCentres(version: number): readonly [number, number][] {
  return AlignmentPattern.getPositions(version);
}

/** True when (x, y) lies in one of the three 7×7 finder patterns ("eyes"). */
export function isInFinder(size: number, x: number, y: number): boolean {
  const far = size - 7;
  return (x < 7 && y < 7) || (x >= far && y < 7) || (x < 7 && y >= far);
}

/** Top-left corners of the three finder patterns: top-left, top-right, bottom-left. */
export function finderOrigins(size: number): readonly [number, number][] {
  return [
    [0, 0],
    [size - 7, 0],
    [0, size - 7],
  ];
}
