import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { toast } from '../../../lib/toast';
import { failure, mockFetch, success } from '../../../test/fixtures';
import { buildParty } from '../../../test/party-fixtures';
import { renderRoutes } from '../../../test/render';
import { PartyCreatePage } from '../pages/party-create-page';
import { PartyEditPage } from '../pages/party-edit-page';

const routes = [
  { path: '/parties/new', element: <PartyCreatePage /> },
  { path: '/parties/:id', element: <p>Party page</p> },
];

async function submitName(name: string) {
  const user = userEvent.setup();
  await user.type(screen.getByRole('textbox', { name: /Party Name/ }), name);
  await user.click(screen.getByRole('button', { name: 'Create Party' }));
}

describe('Party form', () => {
  it('refuses a name under 3 characters without calling the server', async () => {
    const fetchMock = mockFetch(() => success(buildParty(), 201));
    renderRoutes(routes, '/parties/new');
    await submitName('ab');
    expect(await screen.findByText('Party name must be at least 3 characters')).toBeInTheDocument();
    expect(fetchMock.mock.calls.filter(([, init]) => init?.method === 'POST')).toHaveLength(0);
  });

  it('puts VALIDATION_ERROR details on their fields, stripping the "party." prefix', async () => {
    const toastError = vi.spyOn(toast, 'error');
    mockFetch(() =>
      failure(422, 'VALIDATION_ERROR', 'Validation failed', [
        { field: 'party.name', message: 'Name is already used by one of your parties' },
        { field: 'party.setting', message: 'Setting is too long' },
      ]),
    );
    renderRoutes(routes, '/parties/new');
    await submitName('Lanterns');
    expect(await screen.findByText('Name is already used by one of your parties')).toBeInTheDocument();
    expect(screen.getByText('Setting is too long')).toBeInTheDocument();
    expect(screen.getByRole('textbox', { name: /Party Name/ })).toHaveAttribute('aria-invalid', 'true');
    expect(toastError).not.toHaveBeenCalled();
  });

  it('shows a validation error naming no field at the form level', async () => {
    mockFetch(() =>
      failure(422, 'VALIDATION_ERROR', 'Validation failed', [
        { field: 'party', message: 'Body is malformed' },
      ]),
    );
    renderRoutes(routes, '/parties/new');
    await submitName('Lanterns');
    expect(await screen.findByTestId('party-form-error')).toHaveTextContent('Validation failed');
  });

  it('toasts other errors; a plan limit only in that toast, with no inline prompt repeating it', async () => {
    const toastError = vi.spyOn(toast, 'error');
    const refusal = 'Your Free plan allows 1 party. Upgrade to create more.';
    mockFetch(() => failure(403, 'LIMIT_EXCEEDED', refusal));
    renderRoutes(routes, '/parties/new');
    await submitName('Lanterns');
    await vi.waitFor(() =>
      expect(toastError).toHaveBeenCalledWith(
        refusal,
        undefined,
        expect.objectContaining({ label: 'See upgrade options' }),
      ),
    );
    expect(screen.queryByTestId('upgrade-prompt')).not.toBeInTheDocument();
  });

  it('creates the party with the form values and opens it', async () => {
    const fetchMock = mockFetch(() => success(buildParty({ id: 'party-7', name: 'Lanterns' }), 201));
    const { router } = renderRoutes(routes, '/parties/new');
    await submitName('Lanterns');
    await vi.waitFor(() => expect(router.state.location.pathname).toBe('/parties/party-7'));
    const post = fetchMock.mock.calls.find(([, init]) => init?.method === 'POST');
    expect(JSON.parse(String(post?.[1]?.body))).toEqual({
      party: {
        name: 'Lanterns',
        description: '',
        game_system: '',
        setting: '',
        join_permission: 'limited',
        encumbrance_style: 'both',
        item_conjuring: 'free',
        is_public: false,
      },
    });
  });
});

describe('Edit Party: who adds items from the marketplace (issue 12)', () => {
  const editRoutes = [
    { path: '/parties/:id/edit', element: <PartyEditPage /> },
    { path: '/parties/:id', element: <p>Party page</p> },
  ];

  it('shows the party’s rule and saves the GM’s change', async () => {
    const party = buildParty({ id: 'party-3', is_gm: true, user_role: 'gm', item_conjuring: 'free' });
    const fetchMock = mockFetch(({ init }) =>
      init.method === 'PATCH' ? success({ ...party, item_conjuring: 'gm_only' }) : success(party),
    );
    const { router } = renderRoutes(editRoutes, '/parties/party-3/edit');
    const rule = await screen.findByRole('switch', { name: /Only the GM adds items from the marketplace/ });
    expect(rule).not.toBeChecked();
    const user = userEvent.setup();
    await user.click(rule);
    expect(rule).toBeChecked();
    await user.click(screen.getByRole('button', { name: 'Save Changes' }));
    await vi.waitFor(() => expect(router.state.location.pathname).toBe('/parties/party-3'));
    const patch = fetchMock.mock.calls.find(([, init]) => init?.method === 'PATCH');
    expect(JSON.parse(String(patch?.[1]?.body)).party).toMatchObject({ item_conjuring: 'gm_only' });
  });

  it('starts switched on for a GM-only party', async () => {
    mockFetch(() => success(buildParty({ is_gm: true, user_role: 'gm', item_conjuring: 'gm_only' })));
    renderRoutes(editRoutes, '/parties/party-1/edit');
    expect(
      await screen.findByRole('switch', { name: /Only the GM adds items from the marketplace/ }),
    ).toBeChecked();
  });
});
