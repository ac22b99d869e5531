// Logger options for Fastify's pino: JSON lines for log collectors, readable lines for a
// person at a terminal. pino-pretty runs as a synchronous stream in this process (not a
// worker transport), so nothing logged just before an exit is lost.
import type { FastifyServerOptions } from 'fastify';
import type { DestinationStream, SerializerFn } from 'pino';
import pretty from 'pino-pretty';
import type { Config } from '../../config.ts';

export function loggerOptions(
  config: Pick<Config, 'logLevel' | 'logFormat'>,
  serializers: Record<string, SerializerFn> = {},
  /** Where JSON lines go instead of stdout (tests read them). */
  jsonStream?: DestinationStream,
): FastifyServerOptions['logger'] {
  if (config.logLevel === 'silent') return false;
  if (config.logFormat === 'json') return { level: config.logLevel, serializers, ...(jsonStream ? { stream: jsonStream } : {}) };
  // Colours only on a terminal: LOG_FORMAT=pretty with stdout sent to a file wrote escape codes into it.
  const stream = pretty({ sync: true, colorize: Boolean(process.stdout.isTTY), translateTime: 'SYS:HH:MM:ss.l', ignore: 'pid,hostname' });
  return { level: config.logLevel, serializers, stream };
}
