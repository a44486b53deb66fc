// One-line JSON logs on stderr, written by pino: pid and hostname on every line, errors
// serialized as `err` {type, message, stack}, and credentials redacted wherever a caller puts
// them by mistake. Callers pass facts, never credentials or tokens; redaction is the net.

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

/** Field names whose values are secrets, at the top level and one or two levels down. */
const SECRET_KEYS = ['authorization', 'Authorization', 'cookie', 'token', 'accessToken', 'refreshToken', 'apiKey', 'api_key', 'apiSecret', 'api_secret', 'secret', 'password', 'jwtSecret', 'x-api-key', 'X-Api-Key'];
export const REDACTED_PATHS = SECRET_KEYS.flatMap((key) => {
  const member = /^[A-Za-z_$][\w$]*$/.test(key) ? key : `["${key}"]`;
  const dot = member.startsWith('[') ? '' : '.';
  return [member, `*${dot}${member}`, `*.*${dot}${member}`];
});

/** A bearer or basic credential written into a message or a string field. */
const CREDENTIAL = /\b(Bearer|Basic)\s+[A-Za-z0-9._~+/=-]+/g;
const HAS_CREDENTIAL = /\b(Bearer|Basic)\s+[A-Za-z0-9._~+/=-]/;
const scrub = (text: string) => text.replace(CREDENTIAL, '$1 [REDACTED]');

type PinoLogger = pino.Logger<never>;

function wrap(target: PinoLogger): Logger {
  const at =
    (level: 'debug' | 'info' | 'warn' | 'error') =>
    (message: string, fields?: Record<string, unknown>): void => {
      if (!target.isLevelEnabled(level)) return;
      if (fields) target[level](fields, scrub(message));
      else target[level](scrub(message));
    };
  return { debug: at('debug'), info: at('info'), warn: at('warn'), error: at('error'), child: (bindings) => wrap(target.child(bindings)) };
}

/**
 * `write` receives each line without its newline (tests capture lines this way); by default
 * lines go to stderr synchronously, so their order is the order of the calls.
 */
export function createLogger(level: LogLevel, write?: (line: string) => void): Logger {
  const destination: DestinationStream = write ? { write: (line: string) => write(line.endsWith('\n') ? line.slice(0, -1) : line) } : pino.destination({ dest: 2, sync: true });
  const target = pino(
    {
      level: level satisfies LevelWithSilent,
      messageKey: 'message',
      errorKey: 'err',
      timestamp: pino.stdTimeFunctions.isoTime,
      formatters: { level: (label) => ({ level: label }) },
      serializers: { err: stdSerializers.err, error: stdSerializers.err },
      redact: { paths: REDACTED_PATHS, censor: '[REDACTED]' },
      hooks: {
        // String fields are scrubbed of bearer/basic credentials too (a header copied into a reason).
        logMethod(args, method) {
          const [first, ...rest] = args;
          if (!first || typeof first !== 'object' || first instanceof Error) return method.apply(this, args);
          const fields = first as Record<string, unknown>;
          const dirty = Object.keys(fields).filter((key) => typeof fields[key] === 'string' && HAS_CREDENTIAL.test(fields[key]));
          if (dirty.length === 0) return method.apply(this, args);
          const clean = { ...fields };
          for (const key of dirty) clean[key] = scrub(fields[key] as string);
          method.apply(this, [clean, ...rest] as Parameters<typeof method>);
        },
      },
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
  return { debug: merge('debug'), info: merge('info'), warn: merge('warn'), error: merge('error'), child: (more) => childLogger(logger, { ...bindings, ...more }) };
}
