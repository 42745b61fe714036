export type LogFormat = 'pretty' | 'json';

/**
 * Issue 12: a person at a terminal reads lines, a log collector reads JSON. LOG_FORMAT decides when set;
 * otherwise the development server writes readable lines to a terminal and JSON anywhere else (a pipe,
 * a file, production, tests).
 */
export function resolveLogFormat(
  requested: LogFormat | undefined,
  where: { isTty: boolean; nodeEnv: 'development' | 'production' | 'test' },
): LogFormat {
  if (requested) return requested;
  return where.isTty && where.nodeEnv === 'development' ? 'pretty' : 'json';
}

interface LineSink {
  write(line: string): boolean;
}

/**
 * Turns each JSON line pino writes into a readable one before it reaches `sink`. The lines were redacted
 * before they were formatted, so the pretty output carries no more than the JSON would. pino-pretty is
 * loaded only here: a server writing JSON never pays for it at start (issue 13 §6).
 */
export async function prettyLines(sink: LineSink, colorize: boolean): Promise<LineSink> {
  const { default: PinoPretty } = await import('pino-pretty');
  const prettify = PinoPretty.prettyFactory({
    colorize,
    translateTime: 'SYS:HH:MM:ss',
    ignore: 'pid,hostname',
    singleLine: true,
  });
  return { write: (line: string) => sink.write(prettify(line)) };
}
