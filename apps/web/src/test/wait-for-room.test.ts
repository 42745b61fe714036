import { describe, expect, it, vi } from 'vitest';

describe('vi.waitFor in the web tests (test/setup.ts)', () => {
  it('waits past vitest’s own 1 s for what a busy machine is slow to show', async () => {
    const shownAt = Date.now() + 1_500;
    await vi.waitFor(() => expect(Date.now()).toBeGreaterThanOrEqual(shownAt));
  });

  it('keeps a timeout a test names', async () => {
    await expect(vi.waitFor(() => expect(false).toBe(true), { timeout: 50 })).rejects.toThrow();
  });
});
