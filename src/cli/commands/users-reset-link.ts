// Help for `users reset-link`; src/cli.ts runs it.
import { defineCommand } from '../command.ts';

export const usersResetLink = defineCommand({
  words: ['users', 'reset-link'],
  synopsis: 'EMAIL',
  summary: 'a one-time link that sets a new password for EMAIL (valid 24 h)',
  details: 'For when nobody can sign in; an owner can also make one for a member in the web app under Members.',
});
