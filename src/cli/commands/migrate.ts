import { defineCommand } from '../command.ts';

export const command = defineCommand({
  kind: 'database',
  name: 'migrate',
  summary: 'Apply pending database migrations (every other command does it too, first)',
  options: {},
  prints: '{"applied":["001_initial",...]} (empty when the database was up to date)',
  examples: ['tmwatch migrate'],
  // The CLI migrates before running any database command; this one only reports what it applied.
  run: async ({ migrations }) => ({ applied: migrations }),
});
