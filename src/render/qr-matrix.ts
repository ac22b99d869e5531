// QR matrix step, kept apart from drawing: the `qrcode` package encodes the text
// (segments, version, mask); everything visual happens later on this plain grid.
import QRCode from 'qrcode';
import { ValidationError } from '../domain/errors.ts';
import type { ErrorCorrectionLevel } from '../domain/design.ts';

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
