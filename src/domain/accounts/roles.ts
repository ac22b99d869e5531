// Members' roles and the API scopes each one gives a session.
import type { Scope } from '../api-key.ts';

export const ROLES = ['owner', 'editor', 'viewer'] as const;
export type Role = (typeof ROLES)[number];

const SCOPES_OF: Record<Role, Scope[]> = {
  owner: ['qr:read', 'qr:write'],
  editor: ['qr:read', 'qr:write'],
  viewer: ['qr:read'],
};

export function scopesOfRole(role: Role): Scope[] {
  return SCOPES_OF[role];
}

export function isRole(value: string): value is Role {
  return (ROLES as readonly string[]).includes(value);
}
