import { MantineProvider } from '@mantine/core';
import { render, screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { theme } from '../../../app/theme';
import { buildProviders, failure, success } from '../../../test/fixtures';
import { ContinueWithDiscord } from './continue-with-discord';

/** As on /login's first load: no query client in place yet, the providers are asked for directly. */
function renderWithoutQueryClient() {
  return render(
    <MantineProvider env="test" theme={theme}>
      <ContinueWithDiscord />
    </MantineProvider>,
  );
}

describe('ContinueWithDiscord before the query client has loaded', () => {
  it('asks for the providers and offers the button when Discord sign-in is configured', async () => {
    const fetchMock = vi.fn(async (_input: RequestInfo | URL) => success(buildProviders({ sign_in: true })));
    vi.stubGlobal('fetch', fetchMock);
    renderWithoutQueryClient();
    expect(await screen.findByRole('button', { name: 'Continue with Discord' })).toBeInTheDocument();
    expect(fetchMock).toHaveBeenCalledTimes(1);
    expect(String(fetchMock.mock.calls[0]?.[0])).toBe('/api/v1/auth/providers');
  });

  it('retries once after a server failure, as the query client would', async () => {
    const fetchMock = vi
      .fn()
      .mockResolvedValueOnce(failure(503, 'SERVICE_UNAVAILABLE', 'down'))
      .mockResolvedValue(success(buildProviders({ sign_in: true })));
    vi.stubGlobal('fetch', fetchMock);
    renderWithoutQueryClient();
    expect(
      await screen.findByRole('button', { name: 'Continue with Discord' }, { timeout: 3000 }),
    ).toBeInTheDocument();
    expect(fetchMock).toHaveBeenCalledTimes(2);
  });

  it('shows nothing without Discord sign-in, and does not retry a refusal', async () => {
    const fetchMock = vi.fn(async () => failure(404, 'RESOURCE_NOT_FOUND', 'no'));
    vi.stubGlobal('fetch', fetchMock);
    renderWithoutQueryClient();
    await vi.waitFor(() => expect(fetchMock).toHaveBeenCalledTimes(1));
    await new Promise((resolve) => setTimeout(resolve, 1200));
    expect(fetchMock).toHaveBeenCalledTimes(1);
    expect(screen.queryByRole('button', { name: 'Continue with Discord' })).not.toBeInTheDocument();
  });
});
