import { screen } from '@testing-library/react';
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
});
