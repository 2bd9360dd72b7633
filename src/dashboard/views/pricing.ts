import { PLANS, TIER_LABEL, TIERS, type Tier } from '../../domain/plans.ts';
import { html } from '../html.ts';
import { layout, pageHeader, type Viewer } from './layout.ts';

const BLURB: Record<Tier, string> = {
  free: 'Try the service on a few brands.',
  solo: 'For a single brand owner or agent.',
  team: 'For brand teams, with REST API access.',
  enterprise: 'Unlimited watches for large portfolios.',
};

const CADENCE_LABEL = { hourly: 'Hourly', daily: 'Daily', weekly: 'Weekly' } as const;

const yes = html`<span class="check" aria-hidden="true">✓</span> Included`;
const no = html`<span class="cross" aria-hidden="true">—</span> Not included`;

export function pricingPage(o: { viewer: Viewer | null; currentTier: Tier | null }) {
  const cards = TIERS.map((tier) => {
    const plan = PLANS[tier];
    const current = tier === o.currentTier;
    return html`<section class="plan card${current ? ' plan--current' : ''}" aria-labelledby="plan-${tier}">
      <header class="plan__header">
        <h2 id="plan-${tier}">${TIER_LABEL[tier]}</h2>
        ${current && html`<span class="pill pill--info">Your plan</span>`}
      </header>
      <p class="plan__blurb">${BLURB[tier]}</p>
      <dl class="plan__facts">
        <div><dt>Active watches</dt><dd>${plan.maxActiveWatches === null ? 'Unlimited' : `Up to ${plan.maxActiveWatches}`}</dd></div>
        <div><dt>Fastest scans</dt><dd>${CADENCE_LABEL[plan.minScanCadence]}</dd></div>
        <div><dt>Alert e-mails</dt><dd>${plan.alertEmail ? yes : html`<span class="cross" aria-hidden="true">—</span> In-app only`}</dd></div>
        <div><dt>REST API &amp; keys</dt><dd>${plan.apiAccess ? yes : no}</dd></div>
        <div><dt>Webhook endpoints</dt><dd>${plan.maxWebhooks === null ? 'Unlimited' : plan.maxWebhooks === 0 ? no : `Up to ${plan.maxWebhooks}`}</dd></div>
      </dl>
    </section>`;
  });
  return layout({
    title: 'Plans',
    viewer: o.viewer,
    current: 'pricing',
    body: html`${pageHeader('Plans', {
      lead: 'Every plan scans the trademark register mirror and shows alerts in the dashboard. Plans differ in how many brands you can watch, how often they are scanned, and whether you can use the REST API.',
    })}
    <div class="plans">${cards}</div>
    <p class="hint">To change plan, contact your account administrator${o.viewer?.organization ? ' (your organization’s plan applies to every member)' : ''}.</p>`,
  });
}
