// The parts of qrcode 1.x's internals (MIT) the scan warnings use: the version a text
// encodes at, without building and masking the matrix, and where a version's alignment
// patterns sit. The package ships no declarations for its lib/core modules.
declare module 'qrcode/lib/core/segments.js' {
  const Segments: { fromString(data: string, version: number): unknown[] };
  export default Segments;
}
declare module 'qrcode/lib/core/version.js' {
  const Version: { getBestVersionForData(segments: unknown[], level: unknown): number | undefined };
  export default Version;
}
declare module 'qrcode/lib/core/error-correction-level.js' {
  const ECLevel: Record<'L' | 'M' | 'Q' | 'H', unknown>;
  export default ECLevel;
}
declare module 'qrcode/lib/core/alignment-pattern.js' {
  const AlignmentPattern: { getPositions(version: number): [number, number][] };
  export default AlignmentPattern;
}
