// Emails and account names as people type them, normalised once.
import { ValidationError } from '../errors.ts';

export const EMAIL_MAX = 254;
export const ACCOUNT_NAME_MAX = 80;

/** Lower-cased and trimmed; a plain shape check (one @, a dot in the domain), as a mail server would be the real judge. */
export function normaliseEmail(raw: string, field = 'email'): string {
  const email = raw.trim().toLowerCase();
  if (email.length > EMAIL_MAX || !/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(email))
    throw new ValidationError(`${field}: must be an email address such as ada@example.com`);
  return email;
}

export function normaliseAccountName(raw: string, field = 'accountName'): string {
  const name = raw.trim().replace(/\s+/g, ' ');
  if (name === '') throw new ValidationError(`${field}: must not be empty`);
  if (name.length > ACCOUNT_NAME_MAX) throw new ValidationError(`${field}: must be at most ${ACCOUNT_NAME_MAX} characters`);
  return name;
}
