// Whether an uploaded raster logo draws anything. The API refuses a PNG (or WebP, JPEG…) whose
// every pixel is transparent when the code is created; the preview drew it as nothing and said
// nothing, so the studio found out only at "Create" (issue #32). The browser decodes the file
// once, before the logo enters the design, and the design check (browser-renderer.ts) refuses
// a blank one with the API's own sentence.
const blank = new Set<string>();

/** Logos known to draw nothing (every pixel transparent, or not decodable), by data URL. */
export const isBlankLogo = (dataUrl: string): boolean => blank.has(dataUrl);

/** Decodes a raster logo and notes it when no pixel has any opacity; SVG logos are the sanitizer's. */
export async function inspectLogo(file: Blob, dataUrl: string): Promise<void> {
  if (file.type === 'image/svg+xml') return;
  let bitmap: ImageBitmap;
  try {
    bitmap = await createImageBitmap(file);
  } catch {
    // Not decodable here either: the API's parse says why.
    return;
  }
  // At most 1024 px a side: a pixel at the smallest opacity the API draws survives the scaling.
  const k = Math.min(1, 1024 / Math.max(bitmap.width, bitmap.height, 1));
  const w = Math.max(1, Math.round(bitmap.width * k));
  const h = Math.max(1, Math.round(bitmap.height * k));
  const canvas = new OffscreenCanvas(w, h);
  const ctx = canvas.getContext('2d');
  if (!ctx) return;
  ctx.drawImage(bitmap, 0, 0, w, h);
  bitmap.close();
  const pixels = ctx.getImageData(0, 0, w, h).data;
  for (let i = 3; i < pixels.length; i += 4) if ((pixels[i] as number) > 0) return;
  blank.add(dataUrl);
}
