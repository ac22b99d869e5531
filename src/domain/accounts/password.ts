// Passwords: argon2id (OWASP's minimum parameters), hashed on libuv's thread pool so a
// sign-in never blocks the event loop. Unknown emails are checked against a dummy hash,
// so the answer takes as long whether or not the email exists.
import { hash, verify } from '@node-rs/argon2';
import { ValidationError } from '../errors.ts';

export const PASSWORD_MIN = 10;
export const PASSWORD_MAX = 200;

// algorithm 2 is Argon2id (the package's enum is a const enum, which isolated modules cannot read).
const OPTIONS = { algorithm: 2, memoryCost: 19_456, timeCost: 2, parallelism: 1 } as const;

let dummyHash: Promise<string> | null = null;

export function checkPasswordRule(password: string, field = 'password'): void {
  if ([...password].length < PASSWORD_MIN) throw new ValidationError(`${field}: must be at least ${PASSWORD_MIN} characters`);
  if (password.length > PASSWORD_MAX) throw new ValidationError(`${field}: must be at most ${PASSWORD_MAX} characters`);
}

export function hashPassword(password: string): Promise<string> {
  return hash(password, OPTIONS);
}

export async function verifyPassword(stored: string | null, password: string): Promise<boolean> {
  if (stored === null) {
    dummyHash ??= hashPassword('not a real password, only spends the same time');
    await verify(await dummyHash, password).catch(() => false);
    return false;
  }
  return verify(stored, password).catch(() => false);
}
