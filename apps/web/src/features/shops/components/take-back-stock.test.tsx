import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { describe, expect, it } from 'vitest';
import { useUiStore } from '../../../stores/ui-store';
import { pickContainerByTyping } from '../../../test/container-picker';
import { failure, jsonResponse, mockFetch, success } from '../../../test/fixtures';
import { buildCharacter, pageMeta } from '../../../test/party-fixtures';
import { buildContainer, renderWithProviders } from '../../inventory/test/inventory-fixtures';
import { buildShopInstance, buildStockItem } from '../test/shop-fixtures';
import { TakeBackStock } from './take-back-stock';

const rope = { name: 'Rope', stack_size: 0, tags: [], metadata: {}, coin: null };
const stash = buildContainer({
  id: 'stash-1',
  name: 'Party Stash',
  owner: { type: 'party', id: 'party-1', name: 'The Lantern Bearers' },
  character_id: null,
  party_id: 'party-1',
});
const backpack = buildContainer({ id: 'bag-1', name: 'Backpack' });
const aria = buildCharacter({ id: 'character-1', name: 'Aria', party_id: 'party-1', is_owner: true });

function shopWithRope() {
  return buildShopInstance({
    can_manage: true,
    container: {
      id: 'shop-container-1',
      name: 'Shop stock',
      item_instances: [
        buildStockItem({
          id: 'shelf-rope',
          name: 'Rope',
          quantity: 5,
          item_template_id: 'tpl-rope',
          item_template: rope,
          buy_price_cp: 100,
          has_own_price: true,
        }),
      ],
    },
  });
}

/** The party's and Aria's containers; `unstock` answers the take-back. */
function mockServer(unstock: (body: unknown) => Response | Promise<Response>) {
  return mockFetch(({ url, init }) => {
    const { pathname } = new URL(url, 'http://test');
    if (pathname === '/api/v1/characters')
      return jsonResponse(200, { status: 'success', data: [aria], meta: pageMeta(1, 100) });
    if (pathname === '/api/v1/parties/party-1/containers') return success([stash]);
    if (pathname === '/api/v1/characters/character-1/containers') return success([backpack]);
    if (init.method === 'POST' && pathname === '/api/v1/shop_instances/shop-1/unstock')
      return unstock(JSON.parse(String(init.body)));
    return failure(404, 'RESOURCE_NOT_FOUND', `No fake for ${pathname}`);
  });
}

const unstockCalls = (fetchMock: ReturnType<typeof mockFetch>) =>
  fetchMock.mock.calls.filter(([url, init]) => init?.method === 'POST' && String(url).endsWith('/unstock'));

async function openDialog() {
  const user = userEvent.setup();
  await user.click(await screen.findByRole('combobox', { name: 'Item on the shelf' }));
  await user.click(await screen.findByRole('option', { name: 'Rope ×5 · 1 gp each' }));
  await user.click(screen.getByRole('button', { name: 'Take Back…' }));
  const dialog = await screen.findByRole('dialog', { name: 'Take stock back' });
  // The containers arrive: the party stash first, then my characters'.
  await within(dialog).findByDisplayValue('Party Stash (The Lantern Bearers)');
  return { user, dialog };
}

describe('TakeBackStock', () => {
  it('takes the chosen quantity into the chosen container, says what will move, and closes with a toast', async () => {
    const fetchMock = mockServer(() => success(shopWithRope()));
    renderWithProviders(<TakeBackStock shop={shopWithRope()} />);
    const { user, dialog } = await openDialog();
    // The whole stack by default.
    const quantity = within(dialog).getByRole('textbox', { name: 'Quantity' });
    expect(quantity).toHaveValue('5');
    await user.clear(quantity);
    await user.type(quantity, '2');
    await user.click(within(dialog).getByRole('combobox', { name: 'Put it in' }));
    await user.click(await screen.findByRole('option', { name: 'Backpack (Aria)' }));
    expect(within(dialog).getByTestId('take-back-summary')).toHaveTextContent(
      '2 × Rope leaves the shelf and goes into Backpack (Aria). The shop keeps its price for this item, for when it is stocked again.',
    );

    await user.click(within(dialog).getByRole('button', { name: 'Take Back' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    const [call] = unstockCalls(fetchMock);
    expect(JSON.parse(String(call?.[1]?.body))).toEqual({
      unstock: { item_id: 'shelf-rope', target_container_id: 'bag-1', quantity: 2 },
    });
    expect(useUiStore.getState().toasts.map((t) => t.message)).toContain(
      'Taken back from the shop: 2 × Rope',
    );
    // Focus goes back to the button that opened the dialog.
    await waitFor(() => expect(screen.getByRole('button', { name: 'Take Back…' })).toHaveFocus());
  }, 20_000);

  it('shows the server’s refusal in the dialog, on the field it names, and lets the user try elsewhere', async () => {
    let answers = 0;
    const fetchMock = mockServer(() => {
      answers++;
      return answers === 1
        ? failure(422, 'CAPACITY_EXCEEDED', 'Item(s) would exceed weight limit', [
            { field: 'target_container_id', message: 'Item(s) would exceed weight limit' },
          ])
        : success(shopWithRope());
    });
    renderWithProviders(<TakeBackStock shop={shopWithRope()} />);
    const { user, dialog } = await openDialog();
    await user.click(within(dialog).getByRole('button', { name: 'Take Back' }));
    expect(await within(dialog).findByRole('alert')).toHaveTextContent('Item(s) would exceed weight limit');
    expect(within(dialog).getByRole('combobox', { name: 'Put it in' })).toHaveAttribute(
      'aria-invalid',
      'true',
    );
    expect(screen.getByRole('dialog', { name: 'Take stock back' })).toBeInTheDocument();

    await user.click(within(dialog).getByRole('combobox', { name: 'Put it in' }));
    await user.click(await screen.findByRole('option', { name: 'Backpack (Aria)' }));
    // The refusal was about the stash: another container starts clean.
    expect(within(dialog).queryByRole('alert')).not.toBeInTheDocument();
    expect(within(dialog).getByRole('combobox', { name: 'Put it in' })).not.toHaveAttribute(
      'aria-invalid',
      'true',
    );
    await user.click(within(dialog).getByRole('button', { name: 'Take Back' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(unstockCalls(fetchMock).map(([, init]) => JSON.parse(String(init?.body)).unstock)).toEqual([
      { item_id: 'shelf-rope', target_container_id: 'stash-1', quantity: 5 },
      { item_id: 'shelf-rope', target_container_id: 'bag-1', quantity: 5 },
    ]);
  }, 20_000);

  it('sends one request however often it is confirmed, and is busy until it is answered', async () => {
    let answer: (response: Response) => void = () => {};
    const fetchMock = mockServer(() => new Promise<Response>((resolve) => (answer = resolve)));
    renderWithProviders(<TakeBackStock shop={shopWithRope()} />);
    const { user, dialog } = await openDialog();
    const confirm = within(dialog).getByRole('button', { name: 'Take Back' });
    // A double click and an Enter land before React draws the button busy.
    fireEvent.click(confirm);
    fireEvent.click(confirm);
    fireEvent.submit(confirm);
    await waitFor(() => expect(confirm).toBeDisabled());
    expect(within(dialog).getByRole('button', { name: 'Cancel' })).toBeDisabled();
    // Escape does not close it while the request is out: its answer is shown here.
    await user.keyboard('{Escape}');
    expect(screen.getByRole('dialog', { name: 'Take stock back' })).toBeInTheDocument();
    expect(unstockCalls(fetchMock)).toHaveLength(1);

    answer(failure(404, 'RESOURCE_NOT_FOUND', 'Item not found in this shop.'));
    expect(await within(dialog).findByRole('alert')).toHaveTextContent('Item not found in this shop.');
    expect(confirm).toBeEnabled();
    expect(unstockCalls(fetchMock)).toHaveLength(1);
  }, 20_000);

  it('refuses a quantity the stack does not hold before asking, and is disabled until an item is chosen', async () => {
    const fetchMock = mockServer(() => success(shopWithRope()));
    renderWithProviders(<TakeBackStock shop={shopWithRope()} />);
    const user = userEvent.setup();
    // As Put on the Shelf is: nothing to open the dialog for yet.
    const takeBack = await screen.findByRole('button', { name: 'Take Back…' });
    expect(takeBack).toBeDisabled();

    await user.click(screen.getByRole('combobox', { name: 'Item on the shelf' }));
    await user.click(await screen.findByRole('option', { name: 'Rope ×5 · 1 gp each' }));
    expect(takeBack).toBeEnabled();
    // The next stop of the keyboard from the item, and Enter opens it.
    await user.tab();
    expect(takeBack).toHaveFocus();
    await user.keyboard('{Enter}');
    const dialog = await screen.findByRole('dialog', { name: 'Take stock back' });
    const quantity = within(dialog).getByRole('textbox', { name: 'Quantity' });
    await user.clear(quantity);
    await user.type(quantity, '9');
    await user.tab();
    expect(quantity).toHaveValue('9');
    expect(within(dialog).getByText('Take between 1 and 5')).toBeInTheDocument();
    expect(within(dialog).getByRole('button', { name: 'Take Back' })).toBeDisabled();
    expect(unstockCalls(fetchMock)).toHaveLength(0);
  }, 20_000);

  it('lists the shelf by line, as the shop page does, and takes a line across its stacks', async () => {
    const fetchMock = mockServer(() => success(shopWithRope()));
    const arrow = (id: string, quantity: number) =>
      buildStockItem({ id, name: 'Arrow', quantity, item_template_id: 'tpl-arrow', buy_price_cp: 5 });
    const shop = buildShopInstance({
      can_manage: true,
      container: {
        id: 'shop-container-1',
        name: 'Shop stock',
        item_instances: [arrow('a-1', 15), arrow('a-2', 20), ...shopWithRope().container.item_instances],
      },
    });
    renderWithProviders(<TakeBackStock shop={shop} />);
    const user = userEvent.setup();
    await user.click(screen.getByRole('combobox', { name: 'Item on the shelf' }));
    expect((await screen.findAllByRole('option')).map((o) => o.textContent)).toEqual([
      'Arrow ×35 · 5 cp each',
      'Rope ×5 · 1 gp each',
    ]);
    await user.click(screen.getByRole('option', { name: 'Arrow ×35 · 5 cp each' }));
    await user.click(screen.getByRole('button', { name: 'Take Back…' }));
    const dialog = await screen.findByRole('dialog', { name: 'Take stock back' });
    // The whole line is offered; the server is asked by its largest stack and takes the rest from the line.
    expect(within(dialog).getByRole('textbox', { name: 'Quantity' })).toHaveValue('35');
    await within(dialog).findByText(/goes into/);
    await user.click(within(dialog).getByRole('button', { name: 'Take Back' }));
    await waitFor(() => expect(unstockCalls(fetchMock)).toHaveLength(1));
    expect(JSON.parse(String(unstockCalls(fetchMock)[0]?.[1]?.body))).toMatchObject({
      unstock: { item_id: 'a-2', quantity: 35 },
    });
  });

  it('closes and says so when what it was taking is sold meanwhile, and follows a partial sale', async () => {
    const fetchMock = mockServer(() => success(shopWithRope()));
    const withRopes = (quantity: number) => {
      const shop = shopWithRope();
      const [ropes] = shop.container.item_instances;
      const left = quantity > 0 && ropes ? [{ ...ropes, quantity }] : [];
      return { ...shop, container: { ...shop.container, item_instances: left } };
    };
    function LiveShop() {
      // A live event refreshes the shop the panel is given.
      const [shop, setShop] = useState(withRopes(5));
      return (
        <>
          <button type="button" onClick={() => setShop(withRopes(2))}>
            Three sold
          </button>
          <button type="button" onClick={() => setShop(withRopes(0))}>
            All sold
          </button>
          <TakeBackStock shop={shop} />
        </>
      );
    }
    renderWithProviders(<LiveShop />);
    const { dialog } = await openDialog();
    fireEvent.click(screen.getByRole('button', { name: 'Three sold', hidden: true }));
    expect(
      await within(dialog).findByText('2 × Rope on the shelf of The Wayfarer’s General Store.'),
    ).toBeVisible();
    expect(within(dialog).getByText('Take between 1 and 2')).toBeInTheDocument();
    fireEvent.click(screen.getByRole('button', { name: 'All sold', hidden: true }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(useUiStore.getState().toasts.map((t) => t.message)).toContain('Item not found in this shop.');
    expect(unstockCalls(fetchMock)).toHaveLength(0);
  }, 20_000);

  it('offers the GM every character of the party it may act on, not only its own', async () => {
    const bram = buildCharacter({ id: 'character-2', name: 'Bram', party_id: 'party-1', is_owner: false });
    const bramsPack = buildContainer({
      id: 'bag-2',
      name: 'Satchel',
      owner: { type: 'character', id: 'character-2', name: 'Bram' },
      character_id: 'character-2',
      party_id: 'party-1',
    });
    mockFetch(({ url }) => {
      const { pathname } = new URL(url, 'http://test');
      if (pathname === '/api/v1/characters')
        return jsonResponse(200, { status: 'success', data: [aria, bram], meta: pageMeta(2, 100) });
      if (pathname === '/api/v1/parties/party-1/containers') return success([stash]);
      if (pathname === '/api/v1/characters/character-1/containers') return success([backpack]);
      if (pathname === '/api/v1/characters/character-2/containers') return success([bramsPack]);
      return failure(404, 'RESOURCE_NOT_FOUND', `No fake for ${pathname}`);
    });
    renderWithProviders(<TakeBackStock shop={shopWithRope()} />);
    const { user, dialog } = await openDialog();
    await user.click(within(dialog).getByRole('combobox', { name: 'Put it in' }));
    expect(await screen.findByRole('option', { name: 'Satchel (Bram)' })).toBeInTheDocument();
  }, 20_000);

  it('finds the container to put it in by typing, grouped by owner, for the keyboard to pick', async () => {
    const bram = buildCharacter({ id: 'character-2', name: 'Bram', party_id: 'party-1', is_owner: false });
    const bramsPack = buildContainer({
      id: 'bag-2',
      name: 'Satchel',
      owner: { type: 'character', id: 'character-2', name: 'Bram' },
      character_id: 'character-2',
      party_id: 'party-1',
    });
    mockFetch(({ url }) => {
      const { pathname } = new URL(url, 'http://test');
      if (pathname === '/api/v1/characters')
        return jsonResponse(200, { status: 'success', data: [aria, bram], meta: pageMeta(2, 100) });
      if (pathname === '/api/v1/parties/party-1/containers') return success([stash]);
      if (pathname === '/api/v1/characters/character-1/containers') return success([backpack]);
      if (pathname === '/api/v1/characters/character-2/containers') return success([bramsPack]);
      return failure(404, 'RESOURCE_NOT_FOUND', `No fake for ${pathname}`);
    });
    renderWithProviders(<TakeBackStock shop={shopWithRope()} />);
    const { user, dialog } = await openDialog();
    await pickContainerByTyping(user, {
      label: 'Put it in',
      groups: ['The Lantern Bearers', 'Aria', 'Bram'],
      typed: 'bram',
      matching: ['Satchel (Bram)'],
    });
    expect(within(dialog).getByRole('combobox', { name: 'Put it in' })).toHaveValue('Satchel (Bram)');
    expect(within(dialog).getByTestId('take-back-summary')).toHaveTextContent('goes into Satchel (Bram).');
  }, 20_000);

  it('says when the shelf is empty', () => {
    mockServer(() => success(shopWithRope()));
    renderWithProviders(
      <TakeBackStock
        shop={buildShopInstance({
          can_manage: true,
          container: { id: 'shop-container-1', name: 'Shop stock', item_instances: [] },
        })}
      />,
    );
    expect(screen.getByText('The shelf is empty: there is nothing to take back.')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Take Back…' })).not.toBeInTheDocument();
  });
});
