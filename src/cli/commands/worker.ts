import { defineCommand } from '../command.ts';

export const command = defineCommand({
  kind: 'process',
  name: 'worker',
  summary: 'Run scan workers only (any number of them, on any machines sharing DATABASE_URL)',
  options: {},
  prints: 'nothing on stdout; logs on stderr',
  examples: ['DATABASE_URL=postgres://… tmwatch worker'],
  // Loaded on use, so that help and the other commands never load the HTTP stack.
  run: async ({ config, logger }) =>
    (await import('../../start/worker.ts')).runWorkerProcess(config, logger),
});
