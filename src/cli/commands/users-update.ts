import { createAccountService } from '../../domain/accounts.ts';
import { TIERS } from '../../domain/plans.ts';
import { defineCommand, UsageError } from '../command.ts';

export const command = defineCommand({
  kind: 'database',
  name: 'users update',
  summary: 'Change a user’s plan, organization or password',
  positionals: { name: 'ID', min: 1, max: 1 },
  options: {
    tier: { type: 'string', valueName: 'T', choices: TIERS, description: 'personal plan' },
    org: {
      type: 'string',
      valueName: 'ORG_ID|none',
      description: 'join an organization (takes its tier unless --tier is given), or none to leave',
    },
    password: { type: 'string', valueName: 'P', description: 'new dashboard password' },
  },
  prints: '{"id":"usr_…","email":…,"tier":…,"organizationId":…,"hasPassword":…,"createdAt":…}',
  examples: [
    'tmwatch users update usr_… --tier enterprise',
    'tmwatch users update usr_… --org none',
  ],
  check: (values) => {
    if (values.tier === undefined && values.org === undefined && values.password === undefined) {
      throw new UsageError('nothing to change: give --tier, --org or --password');
    }
  },
  run: async ({ db, values, positionals }) => {
    const [id = ''] = positionals;
    const organizationId = values.org === 'none' ? null : values.org;
    return createAccountService(db).updateUser(id, {
      tier: values.tier,
      organizationId,
      ...(values.password === undefined ? {} : { password: values.password }),
    });
  },
});
