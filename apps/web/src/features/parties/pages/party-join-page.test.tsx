import { act, fireEvent, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { useUiStore } from '../../../stores/ui-store';
import { failure, mockFetch, success } from '../../../test/fixtures';
import { buildParty, buildPreview } from '../../../test/party-fixtures';
import { renderRoutes } from '../../../test/render';
import { normaliseJoinCode, PartyJoinPage } from './party-join-page';

const routes = [
  { path: '/parties/join', element: <PartyJoinPage /> },
  { path: '/parties/:id', element: <p>Party page</p> },
];

const previewCalls = (fetchMock: ReturnType<typeof mockFetch>) =>
  fetchMock.mock.calls.map(([url]) => String(url)).filter((url) => url.includes('/parties/preview'));

function codeInput() {
  return screen.getByRole('textbox', { name: 'Join Code' });
}

describe('normaliseJoinCode', () => {
  it('uppercases, keeps only A–Z and 0–9, and stops at 8 characters', () => {
    expect(normaliseJoinCode('ab-c d2!')).toBe('ABCD2');
    expect(normaliseJoinCode('abcd2345xyz')).toBe('ABCD2345');
  });
});

describe('PartyJoinPage', () => {
  beforeEach(() => useUiStore.setState({ toasts: [] }));

  it('shows the typed code uppercased and filtered, and says when its format looks good', () => {
    mockFetch(() => success(buildPreview()));
    renderRoutes(routes, '/parties/join');
    fireEvent.change(codeInput(), { target: { value: 'ab-c2' } });
    expect(codeInput()).toHaveValue('ABC2');
    expect(screen.queryByText('Join code format looks good')).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Join Party' })).toBeDisabled();
    fireEvent.change(codeInput(), { target: { value: 'abc2-34' } });
    expect(codeInput()).toHaveValue('ABC234');
    expect(screen.getByText('Join code format looks good')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Join Party' })).toBeEnabled();
  });

  it.each([
    [' 3fxqltlc', '3FXQLTLC'],
    ['3fxq-ltlc', '3FXQLTLC'],
    ['3FXQ\u00a0LTLC\n', '3FXQLTLC'],
  ])('keeps the whole code when %j is pasted, separators and all', async (pasted, expected) => {
    const fetchMock = mockFetch(() => success(buildPreview()));
    const user = userEvent.setup();
    renderRoutes(routes, '/parties/join');
    await user.click(codeInput());
    await user.paste(pasted);
    expect(codeInput()).toHaveValue(expected);
    expect(screen.getByText('Join code format looks good')).toBeInTheDocument();
    await vi.waitFor(
      () => expect(previewCalls(fetchMock)).toEqual([`/api/v1/parties/preview?join_code=${expected}`]),
      { timeout: 2_000 },
    );
  });

  it('fills the code in from a shared link (?code=), cleaned as if typed, and previews it', async () => {
    const fetchMock = mockFetch(() => success(buildPreview({ name: 'Night Watch' })));
    renderRoutes(routes, '/parties/join?code=qppw-l9dj');
    expect(codeInput()).toHaveValue('QPPWL9DJ');
    expect(screen.getByText('Join code format looks good')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Join Party' })).toBeEnabled();
    expect(await screen.findByText('Night Watch')).toBeInTheDocument();
    expect(previewCalls(fetchMock)).toEqual(['/api/v1/parties/preview?join_code=QPPWL9DJ']);
  });

  it('still stops a typed code at 8 characters', async () => {
    mockFetch(() => success(buildPreview()));
    const user = userEvent.setup();
    renderRoutes(routes, '/parties/join');
    await user.type(codeInput(), 'abcd2345xyz');
    expect(codeInput()).toHaveValue('ABCD2345');
  });

  it('previews only from 6 characters and only after a 500 ms pause', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const fetchMock = mockFetch(() => success(buildPreview({ name: 'Night Watch' })));
    renderRoutes(routes, '/parties/join');

    fireEvent.change(codeInput(), { target: { value: 'ABC23' } });
    await act(async () => {
      vi.advanceTimersByTime(1_000);
    });
    expect(previewCalls(fetchMock)).toEqual([]);

    fireEvent.change(codeInput(), { target: { value: 'ABC234' } });
    await act(async () => {
      vi.advanceTimersByTime(499);
    });
    expect(previewCalls(fetchMock)).toEqual([]);
    await act(async () => {
      vi.advanceTimersByTime(1);
    });
    await vi.waitFor(() =>
      expect(previewCalls(fetchMock)).toEqual(['/api/v1/parties/preview?join_code=ABC234']),
    );

    vi.useRealTimers();
    expect(await screen.findByText('Night Watch')).toBeInTheDocument();
  });

  it('offers player and observer for a limited party, and all four roles with a warning for a full one', async () => {
    let permission: 'limited' | 'full' = 'limited';
    mockFetch(() => success(buildPreview({ join_permission: permission })));
    const user = userEvent.setup();
    renderRoutes(routes, '/parties/join');
    const optionsShown = async () => {
      await user.click(screen.getByRole('combobox', { name: 'Join as' }));
      const options = (await screen.findAllByRole('option')).map((option) => option.textContent);
      await user.keyboard('{Escape}');
      return options;
    };

    fireEvent.change(codeInput(), { target: { value: 'LIMIT234' } });
    await screen.findByTestId('join-preview', undefined, { timeout: 2_000 });
    expect(await optionsShown()).toEqual(['Player', 'Observer']);
    expect(screen.queryByTestId('full-access-warning')).not.toBeInTheDocument();

    permission = 'full';
    fireEvent.change(codeInput(), { target: { value: 'FULL2345' } });
    expect(
      await screen.findByTestId('full-access-warning', undefined, { timeout: 2_000 }),
    ).toBeInTheDocument();
    expect(await optionsShown()).toEqual(['Player', 'Observer', 'Manager', 'Game Master']);
  });

  it('says "Unable to preview party…" for an unknown code', async () => {
    mockFetch(() => failure(404, 'RESOURCE_NOT_FOUND', 'No party matches this join code.'));
    renderRoutes(routes, '/parties/join');
    fireEvent.change(codeInput(), { target: { value: 'NOPE2345' } });
    expect(
      await screen.findByText(
        'Unable to preview party. Please check the join code and try again.',
        undefined,
        {
          timeout: 2_000,
        },
      ),
    ).toBeInTheDocument();
    // Said of the field, which no longer claims its code looks good.
    expect(codeInput()).toHaveAttribute('aria-invalid', 'true');
    expect(codeInput()).toHaveAccessibleDescription(
      'Unable to preview party. Please check the join code and try again.',
    );
    expect(screen.queryByText('Join code format looks good')).not.toBeInTheDocument();
  });

  it('joins with the code and role, then opens the party with the welcome panel', async () => {
    const fetchMock = mockFetch(({ url }) =>
      url.endsWith('/parties/join')
        ? success(buildParty({ id: 'party-9' }))
        : success(buildPreview({ id: 'party-9' })),
    );
    const { router } = renderRoutes(routes, '/parties/join');
    fireEvent.change(codeInput(), { target: { value: 'abcd2345' } });
    await userEvent.setup().click(screen.getByRole('button', { name: 'Join Party' }));
    await vi.waitFor(() => expect(router.state.location.pathname).toBe('/parties/party-9'));
    expect(router.state.location.search).toBe('?welcome=true');
    const join = fetchMock.mock.calls.find(([url]) => String(url).endsWith('/parties/join'));
    expect(JSON.parse(String(join?.[1]?.body))).toEqual({ join_code: 'ABCD2345', role_request: 'player' });
  });

  it('says a wrong code once, on the field: no alert, no toast; a join after fixing it leaves only the success', async () => {
    const wrong = '7ERZ3P9';
    const fetchMock = mockFetch(({ url }) => {
      if (url.endsWith('/parties/join')) {
        return String(fetchMock.mock.calls.at(-1)?.[1]?.body).includes(wrong)
          ? failure(404, 'RESOURCE_NOT_FOUND', 'No party matches this join code.')
          : success(buildParty({ id: 'party-9', name: 'The Gilded Wanderers' }));
      }
      return url.includes(wrong)
        ? failure(404, 'RESOURCE_NOT_FOUND', 'No party matches this join code.')
        : success(buildPreview({ id: 'party-9' }));
    });
    const user = userEvent.setup();
    const { router } = renderRoutes(routes, '/parties/join');

    fireEvent.change(codeInput(), { target: { value: wrong } });
    await vi.waitFor(() => expect(codeInput()).toHaveAttribute('aria-invalid', 'true'), { timeout: 2_000 });
    await user.click(screen.getByRole('button', { name: 'Join Party' }));
    await vi.waitFor(() =>
      expect(fetchMock.mock.calls.some(([url]) => String(url).endsWith('/parties/join'))).toBe(true),
    );
    // One message, said of the field the user has to change.
    expect(codeInput()).toHaveAccessibleDescription(
      'Unable to preview party. Please check the join code and try again.',
    );
    expect(screen.queryByTestId('join-error')).not.toBeInTheDocument();
    expect(screen.queryByText('No party matches this join code.')).not.toBeInTheDocument();
    expect(useUiStore.getState().toasts).toEqual([]);

    // Fixed and joined at once, before the preview's pause has passed.
    fireEvent.change(codeInput(), { target: { value: 'ABCD2345' } });
    await user.click(screen.getByRole('button', { name: 'Join Party' }));
    await vi.waitFor(() => expect(router.state.location.pathname).toBe('/parties/party-9'));
    expect(useUiStore.getState().toasts.map((toast) => toast.kind)).toEqual(['success']);
    // The wrong code was looked up once, while it was typed; not again once the join went through. (The
    // fixed code is looked up too when the click comes after the preview's pause, as on a busy machine.)
    expect(previewCalls(fetchMock).filter((call) => call.includes(wrong))).toEqual([
      `/api/v1/parties/preview?join_code=${wrong}`,
    ]);
  });

  it('sets the Join Code label and messages in the normal font; only the code in the field is monospace', async () => {
    mockFetch(() => failure(404, 'RESOURCE_NOT_FOUND', 'No party matches this join code.'));
    renderRoutes(routes, '/parties/join');
    fireEvent.change(codeInput(), { target: { value: 'NOPE2345' } });
    const error = await screen.findByText(
      'Unable to preview party. Please check the join code and try again.',
      undefined,
      { timeout: 2_000 },
    );
    const label = screen.getByText('Join Code');
    const monospaced = (element: Element) =>
      element.closest('[style*="font-family"]')?.getAttribute('style')?.includes('monospace') ?? false;
    expect(monospaced(label)).toBe(false);
    expect(monospaced(error)).toBe(false);
    expect(codeInput().getAttribute('style') ?? '').toContain('monospace');
  });

  it('shows "Failed to Join Party" with the server message when joining is refused', async () => {
    mockFetch(({ url }) =>
      url.endsWith('/parties/join')
        ? failure(409, 'CONFLICT', 'You are already a member of this party.')
        : success(buildPreview()),
    );
    renderRoutes(routes, '/parties/join');
    fireEvent.change(codeInput(), { target: { value: 'ABCD2345' } });
    await userEvent.setup().click(screen.getByRole('button', { name: 'Join Party' }));
    const alert = await screen.findByTestId('join-error');
    expect(alert).toHaveTextContent('Failed to Join Party');
    expect(alert).toHaveTextContent('You are already a member of this party.');
  });

  it('says a plan limit once, as the upgrade prompt, not again as a red failure', async () => {
    const message = 'Your Free plan allows 1 party you join. Upgrade to join more.';
    mockFetch(({ url }) =>
      url.endsWith('/parties/join')
        ? failure(403, 'LIMIT_EXCEEDED', message, [
            { field: 'parties_joined', message, resource: 'parties_joined' },
          ])
        : success(buildPreview()),
    );
    renderRoutes(routes, '/parties/join');
    fireEvent.change(codeInput(), { target: { value: 'ABCD2345' } });
    await userEvent.setup().click(screen.getByRole('button', { name: 'Join Party' }));
    expect(await screen.findByText('Plan limit reached')).toBeInTheDocument();
    expect(screen.getAllByText(message)).toHaveLength(1);
    expect(screen.queryByTestId('join-error')).not.toBeInTheDocument();
  });
});
