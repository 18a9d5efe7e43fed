/**
 * The process's logger. stdout carries log records only, so a log shipper can read it line by line: JSON lines
 * by default, or pino-pretty's lines for a person at a terminal (`--log-format pretty`). Anything meant for
 * people alone (the start-up banner, shutdown notes) goes to stderr.
 */
import pino, { type Logger } from 'pino';
import type { TongateConfig } from '../config/types.js';

export async function createLogger(config: Pick<TongateConfig, 'logLevel' | 'logFormat'>): Promise<Logger> {
  if (config.logFormat !== 'pretty') return pino({ level: config.logLevel });
  // Loaded only when asked for: a JSON deployment never pays for it.
  const { default: pretty } = await import('pino-pretty');
  // In this thread, not as a pino transport: the lines stay in order with the process's exit.
  return pino({ level: config.logLevel }, pretty({ destination: 1, sync: true, translateTime: 'SYS:HH:MM:ss.l', ignore: 'pid,hostname' }));
}
