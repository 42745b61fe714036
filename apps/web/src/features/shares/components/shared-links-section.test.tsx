import type { ShareLink } from '@haversack/contracts';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { mockFetch, success } from '../../../test/fixtures';
import { renderWithProviders } from '../../inventory/test/inventory-fixtures';
import { SharedLinksSection } from './shared-links-section';

describe('SharedLinksSection', () => {
  it('says where links come from when there are none (also after the last one was revoked)', async () => {
    mockFetch(({ url }) => (url.endsWith('/users/me/shares') ? success([]) : success({})));
    renderWithProviders(<SharedLinksSection />);
    expect(await screen.findByTestId('shared-links-empty')).toHaveTextContent(
      'You have no shared links. Share a character, a loot or a shop from its page.',
    );
  });

  it('keeps a link to what I can no longer see, says so, names nothing, and still lets me revoke it', async () => {
    const link = (overrides: Partial<ShareLink>): ShareLink => ({
      id: 'share-1',
      code: 'abc123',
      kind: 'loot',
      target_id: 'loot-1',
      target_name: 'Goblin Hoard',
      available: true,
      url: 'https://haversack.test/discord/share/abc123',
      created_at: '2025-01-01T00:00:00Z',
      ...overrides,
    });
    mockFetch(({ url }) =>
      url.endsWith('/users/me/shares')
        ? success([
            link({}),
            link({ id: 'share-2', code: 'def456', target_name: null, available: false }),
            link({ id: 'share-3', code: 'ghi789', kind: 'shop', target_name: null, available: false }),
          ])
        : success({}),
    );
    renderWithProviders(<SharedLinksSection />);
    const [live, hiddenLoot, lostShop] = await screen.findAllByTestId('shared-link');
    if (!live || !hiddenLoot || !lostShop) throw new Error('three links expected');
    expect(within(live).getByText('Goblin Hoard')).toBeInTheDocument();
    expect(within(live).queryByText('No longer available')).not.toBeInTheDocument();

    expect(within(hiddenLoot).getByText('No longer available')).toBeInTheDocument();
    expect(within(hiddenLoot).getByText('Loot you can no longer see')).toBeInTheDocument();
    expect(within(hiddenLoot).getByText(/Its page shows nothing now/)).toBeInTheDocument();
    expect(within(lostShop).getByText('Shop you can no longer see')).toBeInTheDocument();

    await userEvent.click(
      within(hiddenLoot).getByRole('button', { name: 'Revoke link to Loot you can no longer see' }),
    );
    expect(await screen.findByRole('dialog', { name: 'Revoke share link?' })).toHaveTextContent(
      'The link to “Loot you can no longer see” will stop working at once for everyone who has it.',
    );
  });
});
