import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { failure, mockFetch } from '../../../test/fixtures';
import { renderRoutes } from '../../../test/render';
import { PartyDetailPage } from './party-detail-page';

const routes = [{ path: '/parties/:id', element: <PartyDetailPage /> }];

describe('PartyDetailPage', () => {
  it('says "Party Not Found" for an address whose id is not one, not a retry that cannot succeed', async () => {
    mockFetch(() =>
      failure(422, 'VALIDATION_ERROR', 'Validation failed', [{ field: 'id', message: 'Invalid UUID' }]),
    );
    renderRoutes(routes, '/parties/not-a-uuid');
    expect(await screen.findByRole('heading', { level: 1, name: 'Party Not Found' })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Try Again' })).not.toBeInTheDocument();
  });

  it('offers Try Again when the party could not be loaded for another reason', async () => {
    mockFetch(() => failure(500, 'INTERNAL_SERVER_ERROR', 'boom'));
    renderRoutes(routes, '/parties/00000000-0000-4000-8000-000000000000');
    expect(await screen.findByRole('button', { name: 'Try Again' }, { timeout: 10_000 })).toBeInTheDocument();
    expect(screen.queryByRole('heading', { name: 'Party Not Found' })).not.toBeInTheDocument();
  }, 20_000);
});
