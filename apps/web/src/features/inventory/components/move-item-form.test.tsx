import { errorCatalogue } from '@haversack/contracts';
import { act, fireEvent, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { waitingForConnectionMessage } from '../../../lib/http-client';
import { toast } from '../../../lib/toast';
import { tokenStorage } from '../../../lib/token-storage';
import { useUiStore } from '../../../stores/ui-store';
import { buildTokens, failure, jsonResponse, mockFetch, success } from '../../../test/fixtures';
import { buildContainer, buildItem, buildPartyStash, renderWithProviders } from '../test/inventory-fixtures';
import { MoveItemForm, nowhereFromStash } from './move-item-form';

afterEach(() => vi.restoreAllMocks());

const refusal = 'Party collaboration is not included in your Free plan. Upgrade to use it.';
const stash = buildPartyStash({ id: 'party-1', name: 'The Silver Lantern' });

function moveIntoStash() {
  renderWithProviders(
    <MoveItemForm item={buildItem({ quantity: 3 })} destinations={[stash]} onDone={() => undefined} />,
  );
  fireEvent.click(screen.getByRole('button', { name: 'Transfer' }));
}

describe('MoveItemForm', () => {
  it('explains, instead of an empty destination, that a stash item has nowhere to go', () => {
    // A party with no character yet, or a member without one: the stash is the only container they may act on.
    const manacles = buildItem({ id: 'item-manacles', name: 'Manacles', container_id: stash.id });
    renderWithProviders(<MoveItemForm item={manacles} destinations={[stash]} onDone={() => undefined} />);
    expect(screen.getByText(nowhereFromStash)).toBeInTheDocument();
    expect(screen.queryByRole('combobox', { name: 'Destination' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Transfer' })).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Cancel' })).toBeEnabled();
  });

  it('a plan refusal says what the plan lacks and links to the upgrade for it', async () => {
    const toastError = vi.spyOn(toast, 'error');
    mockFetch(() =>
      jsonResponse(403, {
        status: 'error',
        error: {
          type: 'feature_not_available',
          code: 'FEATURE_NOT_AVAILABLE',
          message: refusal,
          status: 403,
          details: [{ field: 'party_collaboration', message: refusal, feature: 'party_collaboration' }],
        },
      }),
    );
    moveIntoStash();
    await waitFor(() =>
      expect(toastError).toHaveBeenCalledWith(refusal, undefined, {
        label: 'See upgrade options',
        href: '/subscription/upgrade?feature=party_collaboration',
      }),
    );
  });

  it("any other refusal shows the server's reason without a link", async () => {
    const toastError = vi.spyOn(toast, 'error');
    mockFetch(() => failure(422, 'CAPACITY_EXCEEDED', 'Item(s) would exceed weight limit'));
    moveIntoStash();
    await waitFor(() => expect(toastError).toHaveBeenCalledTimes(1));
    const [message, , action] = toastError.mock.calls[0] ?? [];
    expect(message).toBe('Item(s) would exceed weight limit');
    expect(action).toBeUndefined();
  });

  it('a transfer that cannot reach the server says the connection failed, once', async () => {
    const toastError = vi.spyOn(toast, 'error');
    mockFetch(({ url }) => {
      // The plan check answers; the server is gone by the time Transfer is pressed.
      if (url === '/api/v1/subscription/check_feature')
        return success({ allowed: true, feature: 'party_collaboration' });
      throw new TypeError('Failed to fetch');
    });
    moveIntoStash();
    await waitFor(() => expect(toastError).toHaveBeenCalled());
    expect(toastError.mock.calls).toEqual([
      [`An unexpected error occurred during item transfer. ${errorCatalogue.NETWORK_ERROR.message}`],
    ]);
  });

  it('a move whose answer was lost while offline waits for the connection and is sent again with its key', async () => {
    tokenStorage.setTokens(buildTokens());
    useUiStore.setState({ toasts: [] });
    const onLine = vi.spyOn(window.navigator, 'onLine', 'get').mockReturnValue(false);
    const toastError = vi.spyOn(toast, 'error');
    const keys: (string | null)[] = [];
    let back = false;
    try {
      mockFetch(({ url, init }) => {
        if (url === '/api/v1/subscription/check_feature')
          return success({ allowed: true, feature: 'party_collaboration' });
        if (url !== '/api/v1/containers/transfer') return failure(404, 'RESOURCE_NOT_FOUND', url);
        keys.push(new Headers(init.headers).get('Idempotency-Key'));
        // Made by the server the first time; its answer, and every answer while offline, is lost.
        if (!back) throw new TypeError('Failed to fetch');
        return jsonResponse(
          200,
          {
            status: 'success',
            data: {
              success: true,
              message: 'Item transferred successfully',
              moved: 3,
              source_instance: null,
              target_instances: [buildItem({ id: 'moved', quantity: 3, container_id: stash.id })],
              transaction_ids: ['entry-1'],
            },
          },
          { 'Idempotent-Replayed': 'true' },
        );
      });
      moveIntoStash();
      await waitFor(
        () =>
          expect(useUiStore.getState().toasts.map((t) => t.message)).toContain(waitingForConnectionMessage),
        { timeout: 5_000 },
      );
      expect(toastError).not.toHaveBeenCalled();
      expect(keys.length).toBe(2);

      back = true;
      onLine.mockReturnValue(true);
      window.dispatchEvent(new Event('online'));
      await waitFor(
        () =>
          expect(useUiStore.getState().toasts.map((t) => t.message)).toEqual([
            'Item transferred successfully',
          ]),
        { timeout: 5_000 },
      );
      expect(toastError).not.toHaveBeenCalled();
      expect(keys.length).toBe(3);
      expect(new Set(keys).size).toBe(1);
    } finally {
      tokenStorage.clear();
      useUiStore.setState({ toasts: [] });
    }
  });

  it('moves once for two presses of Transfer in the same task (Enter and a tap)', async () => {
    const fetchMock = mockFetch(({ url }) =>
      url === '/api/v1/subscription/check_feature'
        ? success({ allowed: true, feature: 'party_collaboration' })
        : failure(422, 'CAPACITY_EXCEEDED', 'Item(s) would exceed weight limit'),
    );
    renderWithProviders(
      <MoveItemForm item={buildItem({ quantity: 3 })} destinations={[stash]} onDone={() => undefined} />,
    );
    const submit = screen.getByRole('button', { name: 'Transfer' });
    act(() => {
      submit.click();
      submit.click();
    });
    const moves = () => fetchMock.mock.calls.filter(([url]) => String(url).endsWith('/containers/transfer'));
    await waitFor(() => expect(moves()).toHaveLength(1));
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(moves()).toHaveLength(1);
  });

  it('lists the party stash disabled, with why, when my plan lacks party collaboration, and never sends there', async () => {
    const fetchMock = mockFetch(({ url }) =>
      url === '/api/v1/subscription/check_feature'
        ? success({ allowed: false, feature: 'party_collaboration' })
        : failure(404, 'RESOURCE_NOT_FOUND', `No fake for ${url}`),
    );
    renderWithProviders(
      <MoveItemForm item={buildItem({ quantity: 3 })} destinations={[stash]} onDone={() => undefined} />,
    );
    await waitFor(() => expect(screen.getByRole('button', { name: 'Transfer' })).toBeDisabled());
    fireEvent.click(screen.getByRole('combobox', { name: 'Destination' }));
    const option = await screen.findByRole('option', { name: /Party Stash/ });
    expect(option).toHaveTextContent('Party collaboration is not included in your plan');
    expect(option).toHaveAttribute('aria-disabled', 'true');
    fireEvent.click(screen.getByRole('button', { name: 'Transfer' }));
    expect(fetchMock.mock.calls.map(([url]) => String(url))).toEqual(['/api/v1/subscription/check_feature']);
  });
});

describe('MoveItemForm destination', () => {
  it('shows the beginning of a long destination, not its end, when focused', () => {
    mockFetch(() => success({ allowed: true, feature: 'party_collaboration' }));
    const long = buildPartyStash({ id: 'party-2', name: 'Friday Night Crew' }, { id: 'stash-2' });
    renderWithProviders(
      <MoveItemForm
        item={buildItem({ quantity: 3 })}
        destinations={[long, stash]}
        onDone={() => undefined}
      />,
    );
    const [input] = screen.getAllByLabelText('Destination').filter((el) => el instanceof HTMLInputElement);
    if (!(input instanceof HTMLInputElement)) throw new Error('expected an input');
    expect(input.value.length).toBeGreaterThan(0);
    input.focus();
    fireEvent.focus(input);
    // The browser scrolls a text box to its caret: at 0 it shows the start and ellipsis-truncates the end.
    expect([input.selectionStart, input.selectionEnd]).toEqual([0, 0]);
  });

  it('keeps a 0 typed as typed, says a quantity is at least 1, and moves nothing', async () => {
    const fetchMock = mockFetch(() => success({}));
    const quiver = buildContainer({ id: 'quiver', name: 'Quiver', is_primary: false });
    renderWithProviders(
      <MoveItemForm item={buildItem({ quantity: 9 })} destinations={[quiver]} onDone={() => undefined} />,
    );
    const user = userEvent.setup();
    const quantity = screen.getByRole('textbox', { name: 'Quantity to move' });
    await user.clear(quantity);
    await user.type(quantity, '0');
    await user.tab();
    expect(quantity).toHaveValue('0');
    expect(screen.getByText('Quantity must be at least 1')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Transfer' })).toBeDisabled();
    await user.clear(quantity);
    await user.type(quantity, '12');
    await user.tab();
    expect(quantity).toHaveValue('12');
    expect(screen.getByText('There are only 9 in this stack.')).toBeInTheDocument();
    expect(fetchMock.mock.calls.filter(([, init]) => init?.method === 'POST')).toHaveLength(0);
  });
});
