import { createAccountService } from '../../domain/accounts.ts';
import { SCOPES } from '../../domain/api-keys.ts';
import { defineCommand } from '../command.ts';

export const command = defineCommand({
  kind: 'database',
  name: 'keys create',
  summary: 'Mint an API key for any user; the plaintext key is printed once, only its hash is kept',
  options: {
    user: { type: 'string', required: true, valueName: 'ID', description: 'owner of the key' },
    name: { type: 'string', required: true, valueName: 'N', description: 'label of the key' },
    scopes: {
      type: 'string',
      required: true,
      valueName: 's1,s2',
      description: `comma-separated scopes: ${SCOPES.join(', ')}`,
    },
  },
  prints:
    '{"id":"key_…","name":…,"prefix":…,"scopes":[…],"createdAt":…,"revokedAt":null,"userId":…,"key":"tmw_…"}',
  examples: ['tmwatch keys create --user usr_… --name ci --scopes watches:read,alerts:read'],
  run: ({ db, values }) =>
    createAccountService(db).createKey({
      userId: values.user,
      name: values.name,
      scopes: values.scopes
        .split(',')
        .map((scope) => scope.trim())
        .filter((scope) => scope !== ''),
    }),
});
