import { type ParseArgsConfig, parseArgs } from 'node:util';
import type { Logger } from 'pino';
import { ConfigError, loadConfig } from '../config.ts';
import { EmbeddedDatabaseBusyError } from '../data/embedded-lock.ts';
import { ApiError } from '../domain/errors.ts';
import { createLogger } from '../logger.ts';
import { damerauLevenshtein } from '../matching/similarity.ts';
import { migrateDatabase } from '../start/database.ts';
import { type Command, UsageError, usageLine } from './command.ts';
import { commandHelp, generalHelp, groupHelp } from './help.ts';
import { loadCommand, resolveCommand } from './registry.ts';

export type CliIo = {
  stdout: (text: string) => Promise<void>;
  stderr: (text: string) => Promise<void>;
};

const write =
  (stream: NodeJS.WriteStream) =>
  (text: string): Promise<void> =>
    new Promise((resolve) => {
      stream.write(text, () => resolve());
    });

export const processIo: CliIo = { stdout: write(process.stdout), stderr: write(process.stderr) };

const isHelp = (arg: string) => arg === '--help' || arg === '-h';

/**
 * Runs one command line and returns the exit status: 0 on success, 2 for a wrong command line,
 * 1 for anything else. On success a command that changes something has printed exactly one JSON
 * object on stdout; on failure stdout is empty and stderr has one line.
 */
export async function main(
  argv: readonly string[],
  env: NodeJS.ProcessEnv = process.env,
  io: CliIo = processIo,
): Promise<number> {
  let logger: Logger | undefined;
  try {
    const [first] = argv;
    if (first === undefined) throw new UsageError('no command given', 'tmwatch --help');
    if (isHelp(first) || first === 'help') {
      await io.stdout(await generalHelp());
      return 0;
    }
    const resolved = resolveCommand(argv);
    if (resolved.kind === 'unknown') {
      throw new UsageError(`unknown command "${resolved.word}"`, 'tmwatch --help');
    }
    if (resolved.kind === 'group') {
      if (argv.slice(1).some(isHelp)) {
        await io.stdout(await groupHelp(resolved.group, resolved.subcommands));
        return 0;
      }
      throw new UsageError(
        `"${resolved.group}" needs a subcommand: ${resolved.subcommands.join(', ')}`,
        `tmwatch ${resolved.group} ${resolved.subcommands.join('|')} ...`,
      );
    }
    const command = await loadCommand(resolved.name);
    if (resolved.rest.some(isHelp)) {
      await io.stdout(commandHelp(command));
      return 0;
    }

    // Configuration is read once, before anything else happens; a bad value stops here.
    const config = loadConfig(env);
    const { values, positionals } = parseCommandLine(command, resolved.rest);
    try {
      command.check?.(values, positionals);
    } catch (error) {
      if (error instanceof UsageError && !error.usage) {
        throw new UsageError(error.message, usageLine(command));
      }
      throw error;
    }
    // A one-shot command runs from cron and scripts, which mail or fail on whatever it writes to
    // stderr: unless LOG_LEVEL says otherwise it logs only warnings and errors, so a run that went
    // well writes nothing there. Long-running roles keep LOG_LEVEL's default, info.
    const quiet = command.kind === 'database' && !config.logLevelSet;
    logger = createLogger(quiet ? 'warn' : config.logLevel);
    const context = { values, positionals, config, logger, stderr: io.stderr };

    if (command.kind === 'process') return await command.run(context);

    // Loaded here, not above: usage errors and help should not pay for loading the drivers.
    const { openDb } = await import('../data/db.ts');
    const db = await openDb({ databaseUrl: config.databaseUrl, dataDir: config.dataDir });
    try {
      const migrations = await migrateDatabase(db);
      // Debug, not info: a one-shot command's stderr is its one-line error message, if any.
      if (migrations.length > 0) logger.debug({ migrations }, 'applied database migrations');
      const result = await command.run({ ...context, db, migrations });
      await io.stdout(`${JSON.stringify(result)}\n`);
      return command.exitStatus?.(result) ?? 0;
    } finally {
      await db.close();
    }
  } catch (error) {
    if (logger && !isExpected(error)) logger.debug({ err: error }, 'command failed');
    await io.stderr(`tmwatch: ${describeError(error)}\n`);
    return error instanceof UsageError ? 2 : 1;
  }
}

/** "unknown option --wach (did you mean --watch?)": the nearest option within two edits. */
function unknownOption(given: string, names: string[]): string {
  const bare = given.replace(/^-+/, '').split('=')[0] ?? '';
  const near = names
    .map((name) => ({ name, distance: damerauLevenshtein(bare, name, 2) }))
    .filter((n) => n.distance <= 2)
    .sort((a, b) => a.distance - b.distance)[0];
  return near === undefined
    ? `unknown option ${given}`
    : `unknown option ${given} (did you mean --${near.name}?)`;
}

/** node:util parseArgs plus what it leaves out: required options, choices, positional counts. */
export function parseCommandLine(command: Command, args: readonly string[]) {
  const usage = usageLine(command);
  const options: NonNullable<ParseArgsConfig['options']> = {};
  for (const [name, spec] of Object.entries(command.options)) {
    options[name] = { type: spec.type, multiple: spec.multiple ?? false };
  }
  let parsed: ReturnType<typeof parseArgs>;
  try {
    parsed = parseArgs({ args: [...args], options, strict: true, allowPositionals: true });
  } catch (error) {
    // ERR_PARSE_ARGS_*: unknown option, missing value, unexpected argument. Node's sentence for an
    // unknown option ends in an unbalanced quote ('-- "--wach"), so that one is said here.
    const { code, message } = error as { code?: string; message: string };
    const unknown = /^Unknown option '([^']*)'/.exec(message)?.[1];
    if (code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION' && unknown !== undefined) {
      throw new UsageError(unknownOption(unknown, Object.keys(command.options)), usage);
    }
    throw new UsageError(oneLine(message), usage);
  }
  const values = parsed.values as Record<string, string | boolean | (string | boolean)[]>;
  for (const [name, spec] of Object.entries(command.options)) {
    const value = values[name];
    if (spec.required && value === undefined) {
      throw new UsageError(`missing option --${name}`, usage);
    }
    if (spec.choices && value !== undefined) {
      for (const item of Array.isArray(value) ? value : [value]) {
        if (typeof item === 'string' && !spec.choices.includes(item)) {
          throw new UsageError(
            `--${name} must be one of ${spec.choices.join(', ')} (got "${item}")`,
            usage,
          );
        }
      }
    }
    if (spec.type === 'string' && value === '') {
      throw new UsageError(`--${name} needs a value`, usage);
    }
  }
  const positionals = parsed.positionals;
  const allowed = command.positionals ?? { name: '', min: 0, max: 0 };
  if (positionals.length < allowed.min) {
    throw new UsageError(`missing argument ${allowed.name}`, usage);
  }
  if (positionals.length > allowed.max) {
    throw new UsageError(`unexpected argument "${positionals[allowed.max]}"`, usage);
  }
  return { values: values as never, positionals };
}

const oneLine = (text: string) => text.replace(/\s*\n\s*/g, ' ').trim();

function isExpected(error: unknown): boolean {
  return (
    error instanceof UsageError ||
    error instanceof ApiError ||
    error instanceof ConfigError ||
    error instanceof EmbeddedDatabaseBusyError
  );
}

const UNREACHABLE = new Set([
  'ECONNREFUSED',
  'ENOTFOUND',
  'EHOSTUNREACH',
  'ETIMEDOUT',
  'EAI_AGAIN',
  'CONNECT_TIMEOUT',
]);

/** The one line an operator reads when a command fails. */
export function describeError(error: unknown): string {
  if (error instanceof UsageError) {
    return oneLine(error.usage ? `${error.message} (usage: ${error.usage})` : error.message);
  }
  if (!(error instanceof Error)) return oneLine(String(error));
  const code = (error as NodeJS.ErrnoException).code;
  if (code !== undefined && UNREACHABLE.has(code)) {
    return oneLine(`cannot reach the database server (DATABASE_URL): ${error.message}`);
  }
  // postgres.js server errors carry the SQLSTATE and a severity.
  if ('severity' in error && typeof code === 'string') {
    return oneLine(`database error ${code}: ${error.message}`);
  }
  return oneLine(error.message || error.name);
}
