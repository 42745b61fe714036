import { describe, expect, it } from 'vitest';
import {
  featureKeys,
  featureOffering,
  limitExceededMessage,
  limitKeys,
  limitOffering,
  liveFeatureKeys,
  liveFeatures,
  liveLimitKeys,
  liveLimits,
  liveOfferings,
  liveUsageResources,
  presentedTierEntitlements,
  presentedUsage,
  usageResourceLimit,
  usageResources,
} from './subscriptions.js';

describe('what this server offers', () => {
  it('switches every feature and limit of an offering together, from its one line', () => {
    for (const key of featureKeys) expect(liveFeatures[key]).toBe(liveOfferings[featureOffering[key]]);
    for (const key of limitKeys) expect(liveLimits[key]).toBe(liveOfferings[limitOffering[key]]);
    expect(liveUsageResources).toEqual(usageResources.filter((r) => liveLimits[usageResourceLimit[r]]));
  });

  it('presents a tier and its usage with the live keys only, keeping the values', () => {
    const tier = {
      name: 'Legend',
      limits: Object.fromEntries(limitKeys.map((key) => [key, 7])),
      features: Object.fromEntries(featureKeys.map((key) => [key, true])),
    };
    const presented = presentedTierEntitlements(tier);
    expect(presented.name).toBe('Legend');
    expect(Object.keys(presented.limits)).toEqual(liveLimitKeys);
    expect(Object.keys(presented.features)).toEqual(liveFeatureKeys);
    expect(Object.values(presented.limits).every((value) => value === 7)).toBe(true);
    expect(tier.limits).toHaveProperty('loot_templates', 7);
    const usage = Object.fromEntries(usageResources.map((key) => [key, { used: 1, limit: 2 }]));
    expect(Object.keys(presentedUsage(usage))).toEqual(liveUsageResources);
  });
});

describe('limitExceededMessage', () => {
  it('says a limit of none as "allows no", not as "allows 0", a monthly one included', () => {
    expect(limitExceededMessage('Free', 'loot_instances', 0)).toBe(
      'Your Free plan allows no deployed loot instances. Upgrade to use them.',
    );
    expect(limitExceededMessage('Free', 'shop_deployments_monthly', 0)).toBe(
      'Your Free plan allows no shop deployments a month. Upgrade to use them.',
    );
    expect(limitExceededMessage('Free', 'characters', 1)).toBe(
      'Your Free plan allows 1 character. Upgrade to create more.',
    );
    expect(limitExceededMessage('Hero', 'shop_instances', 0, true)).toContain(
      'Your sponsor’s Hero plan allows 0',
    );
  });

  it('words deployed shops and deployed loot alike, loot by the spec’s own noun (spec/02 §2 Loot tab)', () => {
    expect(limitExceededMessage('Hero', 'shop_instances', 25)).toBe(
      'Your Hero plan allows 25 deployed shops. Upgrade to deploy more.',
    );
    expect(limitExceededMessage('Hero', 'loot_instances', 50)).toBe(
      'Your Hero plan allows 50 deployed loot instances. Upgrade to deploy more.',
    );
    expect(limitExceededMessage('Adventurer', 'loot_instances', 1)).toBe(
      'Your Adventurer plan allows 1 deployed loot instance. Upgrade to deploy more.',
    );
  });
});
