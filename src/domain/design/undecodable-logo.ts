// A raster logo with nothing to draw: the message the API answers for it, in a module of its
// own so the studio's check in the browser can say the same without loading the SVG sanitizer.
export const UNDECODABLE = (field: string) => `${field}: the image cannot be decoded (the file is damaged, or every pixel is transparent)`;
