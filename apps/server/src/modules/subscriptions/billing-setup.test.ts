import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../config.js';
import { createBillingProvider } from './billing-setup.js';

const providerFor = async (env: Record<string, string>) =>
  (await createBillingProvider(loadConfig(env))).name;

describe('createBillingProvider (DESIGN §7)', () => {
  it('gives nothing away on a plain start: no NODE_ENV, no Stripe key, no BILLING_PROVIDER', async () => {
    expect(await providerFor({})).toBe('none');
    expect(await providerFor({ NODE_ENV: 'development' })).toBe('none');
    expect(await providerFor({ NODE_ENV: 'test' })).toBe('none');
    expect(await providerFor({ NODE_ENV: 'production' })).toBe('none');
    expect(await providerFor({ BILLING_PROVIDER: '' })).toBe('none');
    // BILLING_PROVIDER=stripe without a key stops the start (config.test.ts).
    expect(() => loadConfig({ BILLING_PROVIDER: 'stripe' })).toThrow(ConfigError);
  });

  it('turns on free upgrades only when BILLING_PROVIDER=local says so', async () => {
    expect(await providerFor({ BILLING_PROVIDER: 'local' })).toBe('local');
    expect(await providerFor({ NODE_ENV: 'production', BILLING_PROVIDER: 'local' })).toBe('local');
  });

  it('charges through Stripe when a key is set', async () => {
    const stripe = { STRIPE_SECRET_KEY: 'sk_test_x', STRIPE_WEBHOOK_SECRET: 'whsec_x' };
    expect(await providerFor(stripe)).toBe('stripe');
    expect(await providerFor({ ...stripe, BILLING_PROVIDER: 'stripe' })).toBe('stripe');
    // The quick start's `local` left in the environment must not switch real billing off.
    expect(await providerFor({ ...stripe, BILLING_PROVIDER: 'local' })).toBe('stripe');
  });

  it('stops start-up on an unknown provider', () => {
    expect(() => loadConfig({ BILLING_PROVIDER: 'free' })).toThrow(ConfigError);
    expect(() => loadConfig({ BILLING_PROVIDER: 'free' })).toThrow(
      /^Invalid configuration: BILLING_PROVIDER /,
    );
  });
});
