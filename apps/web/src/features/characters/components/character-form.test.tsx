import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { jsonResponse, mockFetch } from '../../../test/fixtures';
import { buildParty, pageMeta } from '../../../test/party-fixtures';
import { renderRoutes } from '../../../test/render';
import { CharacterForm } from './character-form';

const TOTAL_PARTIES = 112;

describe('CharacterForm party picker', () => {
  it('offers every active party of the user, not only the first page', async () => {
    const fetchMock = mockFetch(({ url }) => {
      const params = new URL(url, 'http://test').searchParams;
      const page = Number(params.get('page'));
      const perPage = Number(params.get('per_page'));
      const first = (page - 1) * perPage;
      const count = Math.max(0, Math.min(perPage, TOTAL_PARTIES - first));
      const parties = Array.from({ length: count }, (_, index) =>
        buildParty({ id: `party-${first + index}`, name: `Party ${first + index}` }),
      );
      return jsonResponse(200, {
        status: 'success',
        data: parties,
        meta: pageMeta(TOTAL_PARTIES, perPage, page),
      });
    });
    const user = userEvent.setup();
    renderRoutes(
      [
        {
          path: '/characters/new',
          element: <CharacterForm submitLabel="Create" onSubmit={async () => {}} onCancel={() => {}} />,
        },
      ],
      '/characters/new',
    );

    await vi.waitFor(() => expect(fetchMock).toHaveBeenCalledTimes(2));
    await user.click(screen.getByRole('combobox', { name: 'Party' }));
    const options = await screen.findAllByRole('option', { hidden: true });
    expect(options).toHaveLength(TOTAL_PARTIES);
    expect(screen.getByRole('option', { name: 'Party 111', hidden: true })).toBeInTheDocument();
  });
});
