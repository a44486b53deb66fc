// One-line JSON logs on stderr, written by pino: pid and hostname on every line, errors
// serialized as `err` {type, message, stack}, and credentials redacted wherever a caller puts
// them by mistake (secret field names at any depth, `Bearer …`/`Basic …` in any string).
// Callers pass facts, never credentials or tokens; redaction is the net.

import { pino, stdSerializers, type DestinationStream, type LevelWithSilent } from 'pino';

export type LogLevel = 'debug' | 'info' | 'warn' | 'error' | 'silent';

export interface Logger {
  debug(message: string, fields?: Record<string, unknown>): void;
  info(message: string, fields?: Record<string, unknown>): void;
  warn(message: string, fields?: Record<string, unknown>): void;
  error(message: string, fields?: Record<string, unknown>): void;
  /** A logger adding `bindings` to every line (loggers written by tests may lack it: see `childLogger`). */
  child?(bindings: Record<string, unknown>): Logger;
}

/** Field names whose values are secrets (compared in lower case), at any depth up to MAX_DEPTH. */
export const SECRET_FIELDS = new Set([
  'authorization',
  'proxy-authorization',
  'cookie',
  'set-cookie',
  'token',
  'accesstoken',
  'refreshtoken',
  'apikey',
  'api_key',
  'x-api-key',
  'apisecret',
  'api_secret',
  'secret',
  'jwtsecret',
  'password',
  'metricstoken',
]);
const MAX_DEPTH = 4;
export const CENSOR = '[REDACTED]';

/** A bearer or basic credential written into a message or a string field. */
const CREDENTIAL = /\b(Bearer|Basic)\s+[A-Za-z0-9._~+/=-]+/g;
const HAS_CREDENTIAL = /\b(Bearer|Basic)\s+[A-Za-z0-9._~+/=-]/;
const scrub = (text: string) => (HAS_CREDENTIAL.test(text) ? text.replace(CREDENTIAL, `$1 ${CENSOR}`) : text);

function isPlain(value: object): boolean {
  const prototype: unknown = Object.getPrototypeOf(value);
  return prototype === Object.prototype || prototype === null;
}

/**
 * `value` with secret fields censored and credentials scrubbed from strings; the same object
 * when there was nothing to hide (the common case costs a walk over the keys, no copy).
 * Measured: pino's own `redact` with `*.key` wildcards cost ~25 µs a line; this costs ~1.
 */
export function redact(value: unknown, depth = 0): unknown {
  if (typeof value === 'string') return scrub(value);
  if (value === null || typeof value !== 'object' || depth >= MAX_DEPTH) return value;
  if (Array.isArray(value)) {
    const items = value.map((item) => redact(item, depth + 1));
    return items.some((item, index) => item !== value[index]) ? items : value;
  }
  if (!isPlain(value)) return value;
  let copy: Record<string, unknown> | undefined;
  for (const [key, field] of Object.entries(value)) {
    const clean =
      SECRET_FIELDS.has(key.toLowerCase()) && field !== undefined && field !== null ? CENSOR : redact(field, depth + 1);
    if (clean !== field) (copy ??= { ...value })[key] = clean;
  }
  return copy ?? value;
}

type PinoLogger = pino.Logger<never>;

function wrap(target: PinoLogger): Logger {
  const at =
    (level: 'debug' | 'info' | 'warn' | 'error') =>
    (message: string, fields?: Record<string, unknown>): void => {
      if (!target.isLevelEnabled(level)) return;
      // Secret fields and credentials in strings are censored before pino serializes the line.
      if (fields) target[level](redact(fields) as Record<string, unknown>, scrub(message));
      else target[level](scrub(message));
    };
  return {
    debug: at('debug'),
    info: at('info'),
    warn: at('warn'),
    error: at('error'),
    child: (bindings) => wrap(target.child(bindings)),
  };
}

/** Lines are written once this many bytes are buffered, or at the next flush. */
const BUFFER_BYTES = 4096;
/** Longest a line waits in the buffer (a quiet process's lines still show up at once, for a human). */
const FLUSH_EVERY_MS = 100;

let stderrLines: DestinationStream | undefined;

/**
 * stderr, buffered: lines are written synchronously, in call order, by 4 KB (~13 access lines)
 * or every 100 ms, whichever comes first, and at exit. A write per line cost a request one
 * syscall (6 % of a REST `usage` request's CPU on this VM); pino's asynchronous destination
 * saves that under load but costs more than it saves at a few hundred requests a second (a hop
 * to libuv's thread pool and back per write: docs/performance.md, "The access log"). `exit`
 * comes after `process.exit`, the end of the event loop and an uncaught exception alike; only a
 * process killed outright (SIGKILL, an abort) loses what is buffered: 100 ms or 4 KB of lines
 * at most. One buffer for every logger of the process, so lines keep their order across them.
 */
function bufferedStderr(): DestinationStream {
  if (stderrLines) return stderrLines;
  const destination = pino.destination({ dest: 2, sync: true, minLength: BUFFER_BYTES });
  let buffered = false;
  const flush = () => {
    if (!buffered) return;
    buffered = false;
    destination.flush();
  };
  setInterval(flush, FLUSH_EVERY_MS).unref();
  process.on('exit', flush);
  stderrLines = {
    write: (line: string) => {
      buffered = true;
      destination.write(line);
    },
  };
  return stderrLines;
}

/** `write` receives each line without its newline (tests capture lines this way); by default lines go to stderr, buffered. */
export function createLogger(level: LogLevel, write?: (line: string) => void): Logger {
  const destination: DestinationStream = write
    ? { write: (line: string) => write(line.endsWith('\n') ? line.slice(0, -1) : line) }
    : bufferedStderr();
  const target = pino(
    {
      level: level satisfies LevelWithSilent,
      messageKey: 'message',
      errorKey: 'err',
      timestamp: pino.stdTimeFunctions.isoTime,
      formatters: { level: (label) => ({ level: label }) },
      serializers: { err: stdSerializers.err, error: stdSerializers.err },
    },
    destination,
  );
  return wrap(target);
}

/** `logger` with `bindings` on every line, whether or not the logger can make children itself. */
export function childLogger(logger: Logger, bindings: Record<string, unknown>): Logger {
  if (logger.child) return logger.child(bindings);
  const merge =
    (level: 'debug' | 'info' | 'warn' | 'error') =>
    (message: string, fields?: Record<string, unknown>): void =>
      logger[level](message, { ...bindings, ...fields });
  return {
    debug: merge('debug'),
    info: merge('info'),
    warn: merge('warn'),
    error: merge('error'),
    child: (more) => childLogger(logger, { ...bindings, ...more }),
  };
}
