import { screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { buildProviders, mockFetch } from '../../../test/fixtures';
import { renderRoutes } from '../../../test/render';
import { DiscordPage } from './discord-page';

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('the /discord page', () => {
  it('tells whoever runs the server both ways to register the commands: from the sources and from a build', async () => {
    mockFetch(
      ({ url }) => {
        throw new Error(`Failed to fetch: no test answered URL ${url}`);
      },
      { providers: buildProviders({ sign_in: true, interactions: true }) },
    );
    renderRoutes([{ path: '/discord', element: <DiscordPage /> }], '/discord');
    const box = (await screen.findByRole('heading', { name: 'For whoever runs this server' })).closest(
      'section',
    );
    expect(box).not.toBeNull();
    expect(box).toHaveTextContent('npm run discord:register -w apps/server');
    // A self-hoster who pruned the dev dependencies runs the built CLI, as the README says.
    expect(box).toHaveTextContent('node apps/server/dist/cli/discord-register.js');
  });

  it('lists /give with its optional from', async () => {
    mockFetch(
      ({ url }) => {
        throw new Error(`Failed to fetch: no test answered URL ${url}`);
      },
      { providers: buildProviders({ sign_in: true, interactions: true }) },
    );
    renderRoutes([{ path: '/discord', element: <DiscordPage /> }], '/discord');
    expect(await screen.findByText('/give item quantity character [from]')).toBeInTheDocument();
  });
});
