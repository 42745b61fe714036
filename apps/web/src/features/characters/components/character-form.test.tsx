import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { useUiStore } from '../../../stores/ui-store';
import { failure, jsonResponse, mockFetch } from '../../../test/fixtures';
import { buildParty, pageMeta } from '../../../test/party-fixtures';
import { renderRoutes, withUnsavedChangesGuard } from '../../../test/render';
import { CharacterForm, characterFormDefaults } from './character-form';

const TOTAL_PARTIES = 112;

describe('CharacterForm party picker', () => {
  it('keeps the chosen party when it is picked again (a tap to confirm it cleared it)', async () => {
    mockFetch(() =>
      jsonResponse(200, {
        status: 'success',
        data: [buildParty({ id: 'p1', name: 'Lantern Watch' })],
        meta: pageMeta(1, 100),
      }),
    );
    const user = userEvent.setup();
    renderRoutes(
      [
        {
          path: '/characters/new',
          element: (
            <CharacterForm
              submitLabel="Create"
              onSubmit={async () => {}}
              onCancel={() => {}}
              initialValues={{ ...characterFormDefaults, party_id: 'p1' }}
            />
          ),
        },
      ],
      '/characters/new',
    );
    const party = await screen.findByRole('combobox', { name: 'Party' });
    await vi.waitFor(() => expect(party).toHaveValue('Lantern Watch'));
    await user.click(party);
    await user.click(await screen.findByRole('option', { name: 'Lantern Watch', hidden: true }));
    expect(party).toHaveValue('Lantern Watch');
  }, 20_000);

  it('says the parties could not be loaded, and asks again, rather than offering only "No party"', async () => {
    let down = true;
    mockFetch(() =>
      down
        ? failure(500, 'INTERNAL_SERVER_ERROR', 'boom')
        : jsonResponse(200, {
            status: 'success',
            data: [buildParty({ id: 'p1', name: 'Lantern Watch' })],
            meta: pageMeta(1, 100),
          }),
    );
    renderRoutes(
      [
        {
          path: '/characters/new',
          element: <CharacterForm submitLabel="Create" onSubmit={async () => {}} onCancel={() => {}} />,
        },
      ],
      '/characters/new',
    );
    expect(
      await screen.findByText(/Your parties could not be loaded\./, {}, { timeout: 10_000 }),
    ).toBeVisible();
    down = false;
    await userEvent.click(screen.getByRole('button', { name: 'Try again' }));
    await vi.waitFor(() =>
      expect(screen.queryByText(/Your parties could not be loaded\./)).not.toBeInTheDocument(),
    );
  }, 20_000);

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

    // A hundred parties are not scrolled through on a phone: typing finds one, and the keyboard picks it.
    await user.type(screen.getByRole('combobox', { name: 'Party' }), 'Party 11');
    await vi.waitFor(() =>
      expect(screen.getAllByRole('option', { hidden: true }).map((o) => o.textContent)).toEqual([
        'Party 11',
        'Party 110',
        'Party 111',
      ]),
    );
    await user.keyboard('{ArrowDown}{Enter}');
    expect(screen.getByRole('combobox', { name: 'Party' })).toHaveValue('Party 11');
  });
});

describe('CharacterForm and the general toasts (spec/01 §8)', { timeout: 30_000 }, () => {
  function renderForm(onSubmit: () => Promise<void> = async () => {}) {
    mockFetch(() => jsonResponse(200, { status: 'success', data: [], meta: pageMeta(0, 100) }));
    return renderRoutes(
      withUnsavedChangesGuard([
        {
          path: '/characters/new',
          element: <CharacterForm submitLabel="Create" onSubmit={onSubmit} onCancel={() => {}} />,
        },
      ]),
      '/characters/new',
    );
  }

  it('toasts "Please fill in all required fields." when the name is blank', async () => {
    const user = userEvent.setup();
    const onSubmit = vi.fn().mockResolvedValue(undefined);
    renderForm(onSubmit);
    await user.click(screen.getByRole('button', { name: 'Create' }));
    await vi.waitFor(() =>
      expect(useUiStore.getState().toasts.at(-1)).toMatchObject({
        kind: 'error',
        message: 'Please fill in all required fields.',
      }),
    );
    expect(onSubmit).not.toHaveBeenCalled();
  });

  it('toasts "Failed to save. Please try again." for a failure the API did not explain', async () => {
    const user = userEvent.setup();
    renderForm(vi.fn().mockRejectedValue(new TypeError('navigate is not a function')));
    await user.click(screen.getByRole('textbox', { name: 'Name' }));
    await user.paste('Aria Swiftwind');
    await user.click(screen.getByRole('button', { name: 'Create' }));
    await vi.waitFor(() =>
      expect(useUiStore.getState().toasts.at(-1)).toMatchObject({
        kind: 'error',
        message: 'Failed to save. Please try again.',
      }),
    );
  });

  it('asks before leaving with a name typed: "You have unsaved changes."', async () => {
    const user = userEvent.setup();
    renderForm();
    await user.click(screen.getByRole('textbox', { name: 'Name' }));
    await user.paste('Aria Swiftwind');
    await user.click(screen.getByRole('link', { name: 'Elsewhere' }));
    expect(await screen.findByRole('dialog', { name: 'Leave this page?' })).toHaveTextContent(
      'You have unsaved changes.',
    );
  });
});
