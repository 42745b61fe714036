import { authProvidersSchema } from '@haversack/contracts';
import { describe, expect, it } from 'vitest';
import { authProvidersReader } from './discord-sign-in';

const discord = {
  sign_in: true,
  interactions: false,
  invite_url: null,
  interactions_url: 'https://h.example/i',
};

describe('authProvidersReader', () => {
  it('accepts and refuses what authProvidersSchema does, and answers the same data', () => {
    const answers: unknown[] = [
      { discord },
      { discord: { ...discord, invite_url: 'https://discord.com/oauth2/authorize?client_id=1' } },
      { discord: { ...discord, extra: 1 }, other: true },
      { discord: { ...discord, sign_in: 'yes' } },
      { discord: { ...discord, interactions: undefined } },
      { discord: { ...discord, invite_url: undefined } },
      { discord: { ...discord, interactions_url: null } },
      { discord: [] },
      { discord: null },
      {},
      [],
      null,
      'discord',
    ];
    for (const answer of answers) {
      const bySchema = authProvidersSchema.safeParse(answer);
      const byReader = authProvidersReader.safeParse(answer);
      expect(byReader.success, JSON.stringify(answer)).toBe(bySchema.success);
      if (byReader.success && bySchema.success) expect(byReader.data).toEqual(bySchema.data);
    }
  });
});
