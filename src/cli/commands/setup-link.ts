// Help for `setup-link`; src/cli.ts runs it.
import { defineCommand } from '../command.ts';

export const setupLink = defineCommand({
  words: ['setup-link'],
  synopsis: '',
  summary: 'a one-time link to create the first user (only while there is none)',
  details: 'The link is the last line of output; it works once. A running server prints one at every start while no user exists.',
});
