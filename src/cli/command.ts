import type { Logger } from 'pino';
import type { Config } from '../config.ts';
import type { Db } from '../data/db.ts';

/** A wrong command line: exit status 2 and the usage of the command. */
export class UsageError extends Error {
  constructor(
    message: string,
    readonly usage?: string,
  ) {
    super(message);
    this.name = 'UsageError';
  }
}

export type OptionSpec = {
  type: 'string' | 'boolean';
  /** May be given several times (`--watch A --watch B`); the value is then an array. */
  multiple?: boolean;
  required?: boolean;
  /** Allowed values of a string option; anything else is a usage error. */
  choices?: readonly string[];
  /** Placeholder of the value in the help text, e.g. `ID`. */
  valueName?: string;
  description: string;
};

export type OptionSpecs = Record<string, OptionSpec>;

type ValueOf<S extends OptionSpec> = S['type'] extends 'boolean'
  ? S['multiple'] extends true
    ? boolean[]
    : boolean
  : S['multiple'] extends true
    ? string[]
    : string;

/** Parsed option values: required options are always present, others may be undefined. */
export type Values<O extends OptionSpecs> = {
  [K in keyof O]: O[K]['required'] extends true ? ValueOf<O[K]> : ValueOf<O[K]> | undefined;
};

export type PositionalSpec = {
  /** How they read in the usage line, e.g. `ID` or `FILE...`. */
  name: string;
  min: number;
  max: number;
};

type CommandBase<O extends OptionSpecs> = {
  /** The words that select it, e.g. `keys create`; the file is `commands/keys-create.ts`. */
  name: string;
  summary: string;
  options: O;
  positionals?: PositionalSpec;
  /** What it prints on success, for the help text. */
  prints?: string;
  examples?: string[];
  /** Checks of the command line that the option specs cannot express; runs before anything opens. */
  check?(values: Values<O>, positionals: string[]): void;
};

export type CommandContext<O extends OptionSpecs> = {
  values: Values<O>;
  positionals: string[];
  config: Config;
  logger: Logger;
  /**
   * Writes a line for the operator on stderr while the command runs (a sync's retry notice), beside
   * the one-line error of a failure. Most commands write nothing there.
   */
  stderr: (text: string) => Promise<void>;
};

/**
 * A command that changes or reads the database once: the CLI opens and migrates the database,
 * runs it, prints the object it returns as one line of JSON on stdout and closes the database.
 */
export type DatabaseCommand<O extends OptionSpecs = OptionSpecs> = CommandBase<O> & {
  kind: 'database';
  /** `migrations`: the versions this very run applied before the command (usually none). */
  run(context: CommandContext<O> & { db: Db; migrations: string[] }): Promise<object>;
  /**
   * The exit status for a result that is printed but is not a full success (a sync where a file
   * failed: 1, so that cron and CI notice). 0 when absent.
   */
  exitStatus?(result: object): number;
};

/**
 * A long-running role (`serve`, `worker`): it opens what it needs itself, runs until a signal stops
 * it and returns the exit status. It prints no JSON.
 */
export type ProcessCommand<O extends OptionSpecs = OptionSpecs> = CommandBase<O> & {
  kind: 'process';
  run(context: CommandContext<O>): Promise<number>;
};

export type Command<O extends OptionSpecs = OptionSpecs> = DatabaseCommand<O> | ProcessCommand<O>;

/** Identity function that lets TypeScript infer the option types of a command. */
export function defineCommand<const O extends OptionSpecs>(command: DatabaseCommand<O>): Command;
export function defineCommand<const O extends OptionSpecs>(command: ProcessCommand<O>): Command;
export function defineCommand<const O extends OptionSpecs>(
  command: DatabaseCommand<O> | ProcessCommand<O>,
): Command {
  return command as unknown as Command;
}

/** The usage line of a command, e.g. `tmwatch keys create --user ID --name N --scopes s1,s2`. */
export function usageLine(command: Command): string {
  const parts = [`tmwatch ${command.name}`];
  if (command.positionals) {
    const { name, min } = command.positionals;
    parts.push(min > 0 ? name : `[${name}]`);
  }
  for (const [option, spec] of Object.entries(command.options)) {
    const value = spec.type === 'string' ? ` ${spec.valueName ?? 'VALUE'}` : '';
    const text = `--${option}${value}`;
    const repeat = spec.multiple ? '...' : '';
    parts.push(spec.required ? `${text}${repeat}` : `[${text}]${repeat}`);
  }
  return parts.join(' ');
}
