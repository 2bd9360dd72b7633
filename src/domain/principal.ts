import type { PrincipalAccount } from '../data/repositories/accounts.ts';
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

export function principalFromAccount(account: PrincipalAccount): Omit<Principal, 'key'> {
  const organization =
    account.organizationId !== null
      ? { id: account.organizationId, name: account.organizationName ?? '' }
      : null;
  return {
    userId: account.userId,
    email: account.email,
    organization,
    plan: PLANS[account.tier as Tier],
    ownerId: organization?.id ?? account.userId,
  };
}
