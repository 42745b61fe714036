import { describe, expect, it, vi } from 'vitest';
import { buildTokens, mockFetch, success } from '../test/fixtures';
import { refreshSession } from './http-client';
import { tokenStorage } from './token-storage';

describe('refreshSession across tabs', () => {
  it('skips the exchange when another tab rotated the refresh token while this one waited for the lock', async () => {
    tokenStorage.setTokens(buildTokens({ token: 'a', refresh_token: 'r-1' }));
    // A lock held by "another tab", which rotates the tokens before releasing it.
    vi.stubGlobal('navigator', {
      ...navigator,
      locks: {
        request: async (_name: string, callback: () => Promise<boolean>) => {
          tokenStorage.setTokens(buildTokens({ token: 'b', refresh_token: 'r-2' }));
          return callback();
        },
      },
    });
    const fetchMock = mockFetch(() => success(buildTokens({ token: 'c', refresh_token: 'r-3' })));
    await expect(refreshSession()).resolves.toBe(true);
    expect(fetchMock).not.toHaveBeenCalled();
    expect(tokenStorage.getRefreshToken()).toBe('r-2');
  });
});
