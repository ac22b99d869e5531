import type { Role } from '../../api.ts';

/** The roles an owner gives, each with what it allows (the invite form's choices). */
export const ROLES: Array<{ value: Role; text: string }> = [
  { value: 'viewer', text: 'Viewer: sees codes and stats' },
  { value: 'editor', text: 'Editor: also edits codes' },
  { value: 'owner', text: 'Owner: also keys and members' },
];
export const ROLE_NAME: Record<Role, string> = { owner: 'Owner', editor: 'Editor', viewer: 'Viewer' };
