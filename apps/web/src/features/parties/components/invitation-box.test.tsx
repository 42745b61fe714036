import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { useUiStore } from '../../../stores/ui-store';
import { failure, mockFetch, success } from '../../../test/fixtures';
import { renderWithProviders } from '../../inventory/test/inventory-fixtures';
import { InvitationBox } from './invitation-box';

describe('InvitationBox', () => {
  beforeEach(() => useUiStore.setState({ toasts: [] }));
  afterEach(() => useUiStore.setState({ toasts: [] }));

  it('offers Try Again when the open invitations could not be loaded', async () => {
    let connected = false;
    const fetches = mockFetch(({ url }) => {
      if (new URL(url, 'http://test').pathname !== '/api/v1/parties/party-1/invitations')
        return failure(404, 'RESOURCE_NOT_FOUND', `No fake for ${url}`);
      if (!connected) throw new TypeError('Failed to fetch');
      return success([]);
    });
    const user = userEvent.setup();
    renderWithProviders(<InvitationBox partyId="party-1" />);
    await screen.findByText('Open invitations could not be loaded.', undefined, { timeout: 5_000 });
    const asked = fetches.mock.calls.length;
    connected = true;
    await user.click(screen.getByRole('button', { name: 'Try Again' }));
    await waitFor(() =>
      expect(screen.queryByText('Open invitations could not be loaded.')).not.toBeInTheDocument(),
    );
    expect(fetches.mock.calls.length).toBe(asked + 1);
  });
});
