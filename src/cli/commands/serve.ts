import { defineCommand } from '../command.ts';

export const command = defineCommand({
  kind: 'process',
  name: 'serve',
  summary: 'Run the API and dashboard on HOST:PORT (+ the scan scheduler unless SCHEDULER=off)',
  options: {},
  prints:
    'nothing on stdout; logs, the address and (first start only) the demo login and API key on stderr',
  examples: ['tmwatch serve', 'PORT=8080 SCHEDULER=off tmwatch serve'],
  // Loaded on use, so that help and the other commands never load the HTTP stack.
  run: async ({ config, logger }) =>
    (await import('../../start/serve.ts')).runServe(config, logger),
});
