import { type Command, usageLine } from './command.ts';
import { commandNames, loadCommand } from './registry.ts';

async function allCommands(filter: (name: string) => boolean): Promise<Command[]> {
  return Promise.all(commandNames().filter(filter).map(loadCommand));
}

function table(rows: [string, string][]): string {
  const width = Math.max(...rows.map(([left]) => left.length));
  return rows.map(([left, right]) => `  ${left.padEnd(width)}  ${right}`).join('\n');
}

export async function generalHelp(): Promise<string> {
  const commands = await allCommands(() => true);
  return [
    'Usage: tmwatch <command> [options]',
    '',
    'Trademark Watch: the API server, scan workers and administration commands.',
    '',
    'Commands:',
    table(commands.map((c) => [c.name, c.summary])),
    '',
    'Run "tmwatch <command> --help" for the options of a command.',
    'Commands that change something print one JSON object on stdout; logs go to stderr.',
    'Configuration comes from environment variables (PORT, DATABASE_URL, DATA_DIR, ...; see README.md).',
    '',
  ].join('\n');
}

export async function groupHelp(group: string, subcommands: string[]): Promise<string> {
  const commands = await allCommands((name) => subcommands.some((s) => name === `${group} ${s}`));
  return [
    `Usage: tmwatch ${group} <${subcommands.join('|')}> [options]`,
    '',
    table(commands.map((c) => [c.name, c.summary])),
    '',
  ].join('\n');
}

export function commandHelp(command: Command): string {
  const lines = [`Usage: ${usageLine(command)}`, '', command.summary];
  const options = Object.entries(command.options);
  if (options.length > 0) {
    lines.push(
      '',
      'Options:',
      table(
        options.map(([name, spec]) => {
          const value = spec.type === 'string' ? ` ${spec.valueName ?? 'VALUE'}` : '';
          const notes = [
            spec.required ? 'required' : '',
            spec.multiple ? 'repeatable' : '',
            spec.choices ? `one of ${spec.choices.join(', ')}` : '',
          ].filter((note) => note !== '');
          const suffix = notes.length > 0 ? ` (${notes.join('; ')})` : '';
          return [`--${name}${value}`, `${spec.description}${suffix}`];
        }),
      ),
    );
  }
  if (command.prints) lines.push('', `Prints: ${command.prints}`);
  if (command.examples && command.examples.length > 0) {
    lines.push('', 'Examples:', ...command.examples.map((example) => `  ${example}`));
  }
  lines.push('');
  return lines.join('\n');
}
