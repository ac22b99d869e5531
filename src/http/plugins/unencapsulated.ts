// Fastify's documented 'skip-override' marker (what fastify-plugin sets): the plugin's parsers,
// hooks and decorators apply to the instance that registers it, not to a child context.
import type { FastifyPluginAsync, FastifyPluginOptions } from 'fastify';

export function unencapsulated<Options extends FastifyPluginOptions>(plugin: FastifyPluginAsync<Options>): FastifyPluginAsync<Options> {
  return Object.assign(plugin, { [Symbol.for('skip-override')]: true });
}
