export const TIERS = ['free', 'solo', 'team', 'enterprise'] as const;
export type Tier = (typeof TIERS)[number];

export const CADENCES = ['hourly', 'daily', 'weekly'] as const;
export type Cadence = (typeof CADENCES)[number];

export type Plan = {
  tier: Tier;
  apiAccess: boolean;
  /** null: unlimited. */
  maxActiveWatches: number | null;
  minScanCadence: Cadence;
  /** Alert e-mail for this tier (solo and higher). */
  alertEmail: boolean;
  /**
   * Webhook endpoints an owner may have (webhooks come with API access); null: unlimited. Each
   * endpoint multiplies the deliveries of every event, so the cap bounds one owner's share of them.
   */
  maxWebhooks: number | null;
};

// What each tier includes (README).
export const PLANS: Record<Tier, Plan> = {
  free: {
    tier: 'free',
    apiAccess: false,
    maxActiveWatches: 3,
    minScanCadence: 'weekly',
    alertEmail: false,
    maxWebhooks: 0,
  },
  solo: {
    tier: 'solo',
    apiAccess: false,
    maxActiveWatches: 25,
    minScanCadence: 'daily',
    alertEmail: true,
    maxWebhooks: 0,
  },
  team: {
    tier: 'team',
    apiAccess: true,
    maxActiveWatches: 500,
    minScanCadence: 'hourly',
    alertEmail: true,
    maxWebhooks: 10,
  },
  enterprise: {
    tier: 'enterprise',
    apiAccess: true,
    maxActiveWatches: null,
    minScanCadence: 'hourly',
    alertEmail: true,
    maxWebhooks: 50,
  },
};

export const TIER_LABEL: Record<Tier, string> = {
  free: 'Free',
  solo: 'Solo',
  team: 'Team',
  enterprise: 'Enterprise',
};

const CADENCE_MS: Record<Cadence, number> = {
  hourly: 3_600_000,
  daily: 86_400_000,
  weekly: 604_800_000,
};

export function cadenceIntervalMs(cadence: Cadence): number {
  return CADENCE_MS[cadence];
}

/** True when `cadence` scans more often than the plan allows. */
export function isFasterThanAllowed(plan: Plan, cadence: Cadence): boolean {
  return CADENCE_MS[cadence] < CADENCE_MS[plan.minScanCadence];
}
