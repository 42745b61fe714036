import type { ShareLink } from '@haversack/contracts';
import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { mockFetch, success } from '../../../test/fixtures';
import { renderRoutes } from '../../../test/render';
import { ShareButton } from './share-button';

const link: ShareLink = {
  id: 'share-1',
  code: 'abc123',
  kind: 'character',
  target_id: 'character-1',
  target_name: "Thorin's inventory",
  available: true,
  url: 'https://haversack.test/discord/share/abc123',
  created_at: '2025-01-01T00:00:00Z',
};

describe('ShareButton (issue 16 §3)', () => {
  it('writes "Stop sharing" in the scheme\'s readable red, not a shade Mantine lightens', async () => {
    mockFetch(() => success(link, 201));
    renderRoutes(
      [
        {
          path: '/',
          element: <ShareButton kind="character" targetId="character-1" targetName="Thorin's inventory" />,
        },
      ],
      '/',
    );
    await userEvent.click(screen.getByRole('button', { name: 'Share' }));
    const stop = await screen.findByRole('button', { name: 'Stop sharing' });
    // A subtle button given red.9 was drawn in red-6, 3.3:1 on white; now in red's subtle shade, which
    // theme.test.tsx holds to 4.5:1 on the page and on its hovered tint (and is red, not near-white, in the
    // dark scheme).
    expect(stop.style.getPropertyValue('--button-color')).toBe('var(--haversack-red-subtle)');
  });
});
