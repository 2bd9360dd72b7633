import { registerFilesSeen } from '../../mirror/sync.ts';
import { FEED_NAMES } from '../../register/feeds.ts';
import { defineCommand } from '../command.ts';

export const command = defineCommand({
  kind: 'database',
  name: 'registers list',
  summary: 'List every register file a feed has seen, with its status, size, checksum and counts',
  options: {
    feed: {
      type: 'string',
      choices: FEED_NAMES,
      valueName: 'FEED',
      description: 'Only this feed',
    },
  },
  prints:
    '{"files":[{"feed","name","url","status","fileDate","bytes","sha256","imported","updated","skipped","errors","reason","attempts","firstSeenAt","startedAt","finishedAt"}]}',
  examples: ['tmwatch registers list', 'tmwatch registers list --feed uspto-daily'],
  run: async ({ db, values }) => ({ files: await registerFilesSeen(db, values.feed) }),
});
