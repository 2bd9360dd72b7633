import { createAccountService } from '../../domain/accounts.ts';
import { TIERS } from '../../domain/plans.ts';
import { defineCommand } from '../command.ts';

export const command = defineCommand({
  kind: 'database',
  name: 'users create',
  summary: 'Create a user (with --org, a member who takes the organization’s tier)',
  options: {
    email: { type: 'string', required: true, valueName: 'E', description: 'login e-mail address' },
    password: {
      type: 'string',
      valueName: 'P',
      description: 'dashboard password, at least 8 characters; without it the user cannot log in',
    },
    tier: {
      type: 'string',
      valueName: 'T',
      choices: TIERS,
      description: 'personal plan, default free; ignored with --org',
    },
    org: { type: 'string', valueName: 'ORG_ID', description: 'organization to join' },
  },
  prints: '{"id":"usr_…","email":…,"tier":…,"organizationId":…,"hasPassword":…,"createdAt":…}',
  examples: [
    'tmwatch users create --email ana@example.com --password "correct horse" --tier solo',
    'tmwatch users create --email bo@example.com --org org_…',
  ],
  run: ({ db, values }) =>
    createAccountService(db).createUser({
      email: values.email,
      password: values.password,
      tier: values.tier,
      organizationId: values.org,
    }),
});
