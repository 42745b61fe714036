import { describe, expect, it } from 'vitest';
import { featureNameInSentence, featureUnavailableMessage } from './plan-words.js';
import { featureKeys } from './plans.js';

describe('a feature named in a sentence', () => {
  it('reads as a subject where the plan list has an imperative label', () => {
    expect(featureUnavailableMessage('Free', 'shops_deployment')).toBe(
      'Shop deployment is not included in your Free plan. Upgrade to use it.',
    );
    expect(featureUnavailableMessage('Free', 'patronage_system')).toBe(
      'Sponsoring other players (patronage) is not included in your Free plan. Upgrade to use it.',
    );
  });

  it('starts in lower case inside a sentence, except for an acronym', () => {
    expect(featureNameInSentence('party_collaboration')).toBe('party collaboration');
    expect(featureNameInSentence('api_access')).toBe('API access');
    expect(featureNameInSentence('ai_tools')).toBe('AI tools');
    for (const feature of featureKeys)
      expect(featureNameInSentence(feature)).not.toMatch(/^Deploy|^Sponsor /);
  });
});
