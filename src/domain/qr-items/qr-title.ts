// The title of a QR code: its limit and rules, browser-safe so the studio checks as the API does.
import { ValidationError } from '../errors.ts';

export const TITLE_MAX = 120;

export function checkTitle(title: string): string {
  if (title.trim() === '') throw new ValidationError('title: must not be empty');
  if ([...title].length > TITLE_MAX) throw new ValidationError(`title: must be at most ${TITLE_MAX} characters`);
  return title;
}
