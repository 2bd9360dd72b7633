import { systemClock } from '../../clock.ts';
import { scannerFor } from '../../scan/scanner.ts';
import { defineCommand } from '../command.ts';

export const command = defineCommand({
  kind: 'database',
  name: 'scan',
  summary:
    'Scan watches now (all active ones, the given ones, or --due: those whose time has come)',
  options: {
    watch: { type: 'string', multiple: true, valueName: 'ID', description: 'scan this watch' },
    due: { type: 'boolean', description: 'only the watches whose scan is due' },
  },
  prints: '{"watchesScanned":n,"hitsCreated":n,"alertsCreated":n}',
  examples: ['tmwatch scan', 'tmwatch scan --watch wat_… --watch wat_…', 'tmwatch scan --due'],
  // Returns once every scan has committed; the alert e-mail they queue goes out with the next
  // `emails flush` (or a running server's or worker's sender).
  run: async ({ db, config, logger, values }) => {
    // An unknown watch id is an ApiError not_found: exit 1.
    return scannerFor({ db, config, logger, clock: systemClock }).scan({
      watchIds: values.watch,
      due: values.due ?? false,
    });
  },
});
