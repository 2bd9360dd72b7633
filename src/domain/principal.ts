import { PLANS, type Plan, type Tier } from './plans.ts';

/** The caller of a request: a user, the plan in force for them, and the key they used. */
export type Principal = {
  userId: string;
  email: string;
  organization: { id: string; name: string } | null;
  plan: Plan;
  /** Who owns what this caller creates and sees: the organization when a member, else the user. */
  ownerId: string;
  key: { id: string; name: string; scopes: string[]; createdAt: string } | null;
};

export function principalOf(row: {
  user_id: string;
  email: string;
  organization_id: string | null;
  organization_name: string | null;
  tier: string;
}): Omit<Principal, 'key'> {
  const organization =
    row.organization_id !== null
      ? { id: row.organization_id, name: row.organization_name ?? '' }
      : null;
  return {
    userId: row.user_id,
    email: row.email,
    organization,
    plan: PLANS[row.tier as Tier],
    ownerId: organization?.id ?? row.user_id,
  };
}
