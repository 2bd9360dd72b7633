import { createAccountService } from '../../domain/accounts.ts';
import { defineCommand } from '../command.ts';

export const command = defineCommand({
  kind: 'database',
  name: 'keys revoke',
  summary: 'Revoke an API key; it is refused from the very next request (revoking twice is fine)',
  positionals: { name: 'ID', min: 1, max: 1 },
  options: {},
  prints: '{"id":"key_…","name":…,"prefix":…,"scopes":[…],"createdAt":…,"revokedAt":…}',
  examples: ['tmwatch keys revoke key_…'],
  run: ({ db, positionals }) => createAccountService(db).revokeKey(positionals[0] ?? ''),
});
