import { describe, expect, it } from 'vitest';

describe('the unit tests’ fetch', () => {
  it('refuses a call no test answered at once, naming its address, without reaching a server', async () => {
    await expect(fetch('/api/v1/subscription/check_feature')).rejects.toThrow(
      'Failed to fetch: no test answered /api/v1/subscription/check_feature',
    );
    await expect(fetch(new URL('http://127.0.0.1:3000/api/v1/health'))).rejects.toBeInstanceOf(TypeError);
  });

  it('still reads data: addresses', async () => {
    const answer = await fetch('data:text/plain,hello');
    expect(await answer.text()).toBe('hello');
  });
});
