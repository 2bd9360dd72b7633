import { type Logger, pino } from 'pino';

/** Secrets that must never reach a log line, wherever they appear. */
export const REDACT_PATHS = [
  'req.headers.authorization',
  'req.headers.cookie',
  'res.headers["set-cookie"]',
  'headers.authorization',
  'headers.cookie',
  'headers["x-api-key"]',
  '*.usptoApiKey',
  '*.apiKey',
  '*.password',
  '*.passwordHash',
  '*.key',
];

export function createLogger(level: string, destination?: pino.DestinationStream): Logger {
  return pino(
    { level, redact: { paths: REDACT_PATHS, censor: '[redacted]' }, base: { pid: process.pid } },
    // Logs go to stderr: stdout belongs to the CLI's JSON output.
    destination ?? pino.destination(2),
  );
}
