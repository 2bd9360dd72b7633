import { readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { Command } from './command.ts';

const commandsDir = join(dirname(fileURLToPath(import.meta.url)), 'commands');

/**
 * Every file under commands/ is one command, named by its file: `keys-create.ts` is
 * `tmwatch keys create`, `serve.ts` is `tmwatch serve`. Adding a command is adding a file that
 * exports `command`. Only the chosen command's module is loaded, so `tmwatch keys revoke` never
 * pays for loading the HTTP server.
 */
export function commandNames(): string[] {
  return readdirSync(commandsDir)
    .filter((file) => /^[a-z]+(-[a-z]+)?\.ts$/.test(file))
    .map((file) => file.replace(/\.ts$/, '').replace('-', ' '))
    .sort();
}

export async function loadCommand(name: string): Promise<Command> {
  const file = join(commandsDir, `${name.replace(' ', '-')}.ts`);
  const module = (await import(pathToFileURL(file).href)) as { command?: Command };
  if (!module.command || module.command.name !== name) {
    throw new Error(`${file} must export a command named "${name}"`);
  }
  return module.command;
}

export type Resolved =
  | { kind: 'command'; name: string; rest: string[] }
  | { kind: 'group'; group: string; subcommands: string[] }
  | { kind: 'unknown'; word: string };

/** Which command the first words of the command line name, and the arguments left for it. */
export function resolveCommand(argv: readonly string[]): Resolved {
  const names = commandNames();
  const [first = '', second = ''] = argv;
  if (names.includes(`${first} ${second}`)) {
    return { kind: 'command', name: `${first} ${second}`, rest: argv.slice(2) };
  }
  if (names.includes(first)) return { kind: 'command', name: first, rest: argv.slice(1) };
  const subcommands = names
    .filter((name) => name.startsWith(`${first} `))
    .map((name) => name.slice(first.length + 1));
  if (subcommands.length > 0) {
    return second === '' || second.startsWith('-')
      ? { kind: 'group', group: first, subcommands }
      : { kind: 'unknown', word: `${first} ${second}` };
  }
  return { kind: 'unknown', word: first };
}
