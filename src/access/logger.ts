/**
 * The access layer logs through a pino-like logger (fastify's, in the server). Store errors can
 * arrive thousands of times a second during an outage: each distinct message is logged at most
 * once per interval, with the number suppressed. Nothing logged here ever contains a key.
 */

export interface AccessLogger {
  info(obj: object, msg?: string): void;
  warn(obj: object, msg?: string): void;
  error(obj: object, msg?: string): void;
}

export interface ThrottledLogger {
  info(msg: string): void;
  warn(msg: string): void;
  error(msg: string, error: unknown): void;
}

export function throttledLogger(logger: AccessLogger | undefined, intervalMs = 5000): ThrottledLogger {
  const last = new Map<string, { at: number; suppressed: number }>();
  return {
    info: (msg) => logger?.info({ component: 'access' }, msg),
    warn: (msg) => logger?.warn({ component: 'access' }, msg),
    error(msg, error) {
      if (!logger) return;
      const now = Date.now();
      const seen = last.get(msg);
      if (seen !== undefined && now - seen.at < intervalMs) {
        seen.suppressed++;
        return;
      }
      if (last.size > 1000) last.clear();
      last.set(msg, { at: now, suppressed: 0 });
      const e = error as { name?: string; message?: string; code?: string } | undefined;
      logger.error(
        { component: 'access', err: { name: e?.name, message: e?.message, code: e?.code }, suppressedSinceLast: seen?.suppressed ?? 0 },
        msg,
      );
    },
  };
}
