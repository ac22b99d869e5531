// Members' roles and the API scopes each one gives a session.
import type { Scope } from './api-key.ts';

export const ROLES = ['owner', 'editor', 'viewer'] as const;
export type Role = (typeof ROLES)[number];

const SCOPES_OF: Record<Role, Scope[]> = {
  // Owners manage the webhooks (they send the account's data elsewhere).
  owner: ['qr:read', 'qr:write', 'webhooks:read', 'webhooks:write'],
  editor: ['qr:read', 'qr:write'],
  viewer: ['qr:read'],
};

export function scopesOfRole(role: Role): Scope[] {
  return SCOPES_OF[role];
}

export function isRole(value: string): value is Role {
  return (ROLES as readonly string[]).includes(value);
}

/**
 * Why an owner may not make a password-reset link for a member, or null when they may.
 * A password is the user's in every account they belong to, so a link from the owner of one
 * account would let that owner sign in as the member elsewhere, and take over an account
 * the member owns there. The caller must own every account the member is in.
 */
export function resetLinkRefusal(memberAccountIds: readonly string[], callerOwnedAccountIds: ReadonlySet<string>): string | null {
  if (memberAccountIds.every((id) => callerOwnedAccountIds.has(id))) return null;
  return 'userId: this member also belongs to an account you do not own, and a new password would open that account too; they can reset it with a link from someone who owns all their accounts, or from the server (npm run -s qrtrack -- users reset-link EMAIL)';
}
