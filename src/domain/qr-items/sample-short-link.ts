// What the studio's preview of a code not saved yet encodes: a short link of the real length
// (its code is not issued: issued codes are random), so the preview has a real code's density.
// The server draws the same for the first preview it puts in the page.
export const SAMPLE_CODE = 'AbCdE12';

/** The sample short link on `origin` (the page's own, as the browser sees it). */
export function sampleShortLink(origin: string): string {
  return `${origin}/r/${SAMPLE_CODE}`;
}
