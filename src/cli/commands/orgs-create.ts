import { createAccountService } from '../../domain/accounts.ts';
import { TIERS } from '../../domain/plans.ts';
import { defineCommand } from '../command.ts';

export const command = defineCommand({
  kind: 'database',
  name: 'orgs create',
  summary: 'Create an organization; its plan applies to every member',
  options: {
    name: { type: 'string', required: true, valueName: 'N', description: 'display name' },
    tier: {
      type: 'string',
      required: true,
      valueName: 'T',
      choices: TIERS,
      description: 'plan of the organization',
    },
  },
  prints: '{"id":"org_…","name":…,"tier":…,"createdAt":…}',
  examples: ['tmwatch orgs create --name "Acme Legal" --tier team'],
  run: ({ db, values }) =>
    createAccountService(db).createOrganization({ name: values.name, tier: values.tier }),
});
