/**
 * The request's logger (`request.log`), made when it first logs: fastify's own factory makes a pino child with the
 * request id bound for every request (pino serializes the bindings at once), and almost no request logs (the one
 * debug line per response is checked by its level alone). Measured on an upstream network's forwarded requests:
 * the child was ~1 % of the front's CPU per request. What is logged, and with which bindings, is unchanged.
 *
 * Used as fastify's `childLoggerFactory` (src/gateway/gateway.ts).
 */
import type { FastifyBaseLogger, FastifyServerOptions } from 'fastify';
import type { Bindings, ChildLoggerOptions, LogFn } from 'pino';

class LazyRequestLogger {
  private made: FastifyBaseLogger | undefined;

  constructor(
    private readonly parent: FastifyBaseLogger,
    private readonly bindings: Bindings,
    private readonly options: ChildLoggerOptions,
  ) {}

  /** The pino child fastify would have made, made now. */
  private get logger(): FastifyBaseLogger {
    return (this.made ??= this.parent.child(this.bindings, this.options));
  }

  get level(): string {
    return this.made?.level ?? this.options.level ?? this.parent.level;
  }

  set level(level: string) {
    this.logger.level = level;
  }

  fatal(...args: Parameters<LogFn>): void {
    this.logger.fatal(...args);
  }
  error(...args: Parameters<LogFn>): void {
    this.logger.error(...args);
  }
  warn(...args: Parameters<LogFn>): void {
    this.logger.warn(...args);
  }
  info(...args: Parameters<LogFn>): void {
    this.logger.info(...args);
  }
  debug(...args: Parameters<LogFn>): void {
    this.logger.debug(...args);
  }
  trace(...args: Parameters<LogFn>): void {
    this.logger.trace(...args);
  }
  silent(...args: Parameters<LogFn>): void {
    this.logger.silent(...args);
  }

  child(bindings: Bindings, options?: ChildLoggerOptions): FastifyBaseLogger {
    return this.logger.child(bindings, options);
  }
}

export const lazyRequestLogger: NonNullable<FastifyServerOptions['childLoggerFactory']> = (logger, bindings, options) =>
  new LazyRequestLogger(logger, bindings, options) as unknown as FastifyBaseLogger;

/**
 * Request ids (`reqId` in each request's log lines) as fastify's default makes them (`req-<n in base 36>`, wrapping
 * before V8's small-integer limit), given to fastify as its `genReqId` so that the upstream networks' front door
 * (src/upstream/front.ts), which answers some requests before fastify, draws from the same sequence.
 */
export function requestIds(): () => string {
  const maxInt = 2147483647;
  let next = 0;
  return () => {
    next = (next + 1) & maxInt;
    return `req-${next.toString(36)}`;
  };
}
