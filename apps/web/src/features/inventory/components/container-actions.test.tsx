import { type Container, inventoryMessages } from '@haversack/contracts';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { toast } from '../../../lib/toast';
import { failure, jsonResponse, mockFetch, success } from '../../../test/fixtures';
import { buildParty } from '../../../test/party-fixtures';
import { noItemFilters } from '../api/inventory-api';
import { buildContainer, buildItem, renderWithProviders } from '../test/inventory-fixtures';
import { ContainerView } from './container-view';

afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

const backpack = buildContainer();
const pouch = buildContainer({
  id: 'container-2',
  name: 'Belt Pouch',
  is_primary: false,
  items_count: 2,
});
const otherOwners = buildContainer({
  id: 'container-9',
  name: 'Party Stash',
  is_primary: false,
  owner: { type: 'party', id: 'party-1', name: 'The Company' },
});
const copper = buildItem({
  id: 'coins-1',
  name: 'Copper piece',
  quantity: 150,
  container_id: 'container-2',
  item_template_id: 'coin-cp',
  tags: ['currency'],
  item_template: { name: 'Copper piece', stack_size: 0, tags: ['currency'], metadata: {}, coin: 'cp' },
});

function page(items: unknown[]) {
  return jsonResponse(200, {
    status: 'success',
    data: items,
    meta: { current_page: 1, total_pages: 1, total_count: items.length, per_page: 20 },
  });
}

type Answer = (url: string, init: RequestInit) => Response | undefined;

/** GET the container and its items; anything else goes to `answer`. */
function serve(container: Container, items: unknown[], answer: Answer) {
  return mockFetch(({ url, init }) => {
    const own = answer(url, init);
    if (own) return own;
    if (url.startsWith(`/api/v1/containers/${container.id}/items`)) return page(items);
    if (url === `/api/v1/containers/${container.id}`) return success(container);
    return success([]);
  });
}

function renderView(container: Container, onSelect = vi.fn(), containers = [backpack, pouch, otherOwners]) {
  renderWithProviders(
    <ContainerView
      containers={containers}
      containerId={container.id}
      onSelect={onSelect}
      filters={noItemFilters}
      layout="list"
      draggable={false}
      swipeable={false}
      onOpen={() => undefined}
      onQuickTransfer={() => undefined}
      onAddToQueue={() => undefined}
    />,
  );
  return onSelect;
}

const checks = (fetchMock: ReturnType<typeof mockFetch>) =>
  fetchMock.mock.calls.filter(([url]) => String(url) === '/api/v1/subscription/check_feature');

const posts = (fetchMock: ReturnType<typeof mockFetch>, method: string) =>
  fetchMock.mock.calls.filter(([, init]) => init?.method === method);

describe('the container’s dialogs give focus back', () => {
  it.each([
    ['Edit container', 'Edit Belt Pouch', 'Escape'],
    ['Convert coins', 'Convert coins', 'Cancel'],
    ['Delete container', 'Delete container', 'Close'],
  ])('to %s once closed (%s, %s)', async (opener, title, closeWith) => {
    serve(pouch, [copper], () => undefined);
    const user = userEvent.setup();
    renderView(pouch);
    const button = await screen.findByRole('button', { name: opener });
    await user.click(button);
    const dialog = await screen.findByRole('dialog', { name: title });
    await waitFor(() => expect(dialog).toContainElement(document.activeElement as HTMLElement));
    if (closeWith === 'Escape') await user.keyboard('{Escape}');
    else await user.click(within(dialog).getByRole('button', { name: closeWith }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    await waitFor(() => expect(screen.getByRole('button', { name: opener })).toHaveFocus());
  });
});

describe('Edit container', () => {
  it('changes the name, description and limits of a container (PATCH), an empty limit meaning none', async () => {
    const fetchMock = serve(pouch, [copper], (url, init) =>
      init.method === 'PATCH' && url === '/api/v1/containers/container-2'
        ? success({ ...pouch, name: 'Coin Purse', max_slots: null })
        : undefined,
    );
    renderView(pouch);
    fireEvent.click(await screen.findByRole('button', { name: 'Edit container' }));
    const dialog = await screen.findByRole('dialog', { name: 'Edit Belt Pouch' });
    const name = within(dialog).getByRole('textbox', { name: /Container Name/ });
    expect(name).toHaveValue('Belt Pouch');
    fireEvent.change(name, { target: { value: 'Coin Purse' } });
    fireEvent.change(within(dialog).getByRole('textbox', { name: /Max Slots/ }), { target: { value: '' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Save Container' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    const [, init] = posts(fetchMock, 'PATCH')[0] ?? [];
    // Only what changed: the untouched description and weight are not written back.
    expect(JSON.parse(String(init?.body))).toEqual({ container: { name: 'Coin Purse', max_slots: null } });
    expect(posts(fetchMock, 'PATCH')).toHaveLength(1);
  });
});

describe('Edit container on a party’s container', () => {
  /** The party's answers: collaboration allowed, and the viewer's role in the party. */
  const asRole =
    (role: 'gm' | 'manager' | 'player'): Answer =>
    (url) => {
      if (url === '/api/v1/subscription/check_feature')
        return success({ allowed: true, feature: 'party_collaboration' });
      if (url === '/api/v1/parties/party-1')
        return success(buildParty({ id: 'party-1', user_role: role, is_gm: role === 'gm' }));
      return undefined;
    };

  it.each(['gm', 'manager'] as const)('is offered to the %s', async (role) => {
    serve(otherOwners, [], asRole(role));
    renderView(otherOwners);
    expect(await screen.findByRole('button', { name: 'Edit container' })).toBeInTheDocument();
  });

  // The server's rule (inventory.policy assertCanEditPartyContainer): renaming or capping what the group
  // shares is the GM's or a manager's, as deleting it is.
  it('is not offered to a player, who may still move items in and out', async () => {
    const fetchMock = serve(otherOwners, [], asRole('player'));
    renderView(otherOwners);
    expect(await screen.findByText('No items found.')).toBeInTheDocument();
    await waitFor(() =>
      expect(fetchMock.mock.calls.some(([url]) => String(url) === '/api/v1/parties/party-1')).toBe(true),
    );
    await waitFor(() => expect(checks(fetchMock)).toHaveLength(1));
    // Both answers in: nothing more is coming that would draw the button.
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(screen.queryByRole('button', { name: 'Edit container' })).not.toBeInTheDocument();
  });
});

describe('Convert coins', () => {
  it('is offered when the container holds coins and sends from, to and no quantity by default', async () => {
    const fetchMock = serve(pouch, [copper], (_url, init) =>
      init.method === 'POST' ? success(pouch) : undefined,
    );
    renderView(pouch);
    fireEvent.click(await screen.findByRole('button', { name: 'Convert coins' }));
    const dialog = await screen.findByRole('dialog', { name: 'Convert coins' });
    expect(within(dialog).getByText(/holds 150 cp/)).toBeInTheDocument();
    expect(within(dialog).getByRole('textbox', { name: /Quantity/ })).toHaveAttribute(
      'placeholder',
      'As many as convert evenly',
    );
    fireEvent.click(within(dialog).getByRole('button', { name: 'Convert' }));
    await waitFor(() => expect(posts(fetchMock, 'POST')).toHaveLength(1));
    const [url, init] = posts(fetchMock, 'POST')[0] ?? [];
    expect(String(url)).toBe('/api/v1/containers/container-2/convert_currency');
    expect(JSON.parse(String(init?.body))).toEqual({ from: 'cp', to: 'sp' });
  });

  it('converts once on a double click on Convert', async () => {
    const fetchMock = serve(pouch, [copper], (_url, init) =>
      init.method === 'POST' ? success(pouch) : undefined,
    );
    renderView(pouch);
    fireEvent.click(await screen.findByRole('button', { name: 'Convert coins' }));
    const dialog = await screen.findByRole('dialog', { name: 'Convert coins' });
    const convert = within(dialog).getByRole('button', { name: 'Convert' });
    fireEvent.click(convert);
    fireEvent.click(convert);
    await waitFor(() =>
      expect(screen.queryByRole('dialog', { name: 'Convert coins' })).not.toBeInTheDocument(),
    );
    expect(posts(fetchMock, 'POST')).toHaveLength(1);
  });

  it("sends the quantity when given and shows the server's 422 message", async () => {
    const fetchMock = serve(pouch, [copper], (_url, init) =>
      init.method === 'POST'
        ? failure(422, 'VALIDATION_ERROR', 'Validation failed', [
            { field: 'quantity', message: inventoryMessages.conversionUneven },
          ])
        : undefined,
    );
    const toastError = vi.spyOn(toast, 'error');
    renderView(pouch);
    fireEvent.click(await screen.findByRole('button', { name: 'Convert coins' }));
    const dialog = await screen.findByRole('dialog', { name: 'Convert coins' });
    fireEvent.change(within(dialog).getByRole('textbox', { name: /Quantity/ }), { target: { value: '15' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Convert' }));
    expect(await within(dialog).findByRole('alert')).toHaveTextContent(inventoryMessages.conversionUneven);
    expect(toastError).toHaveBeenCalledWith(inventoryMessages.conversionUneven);
    const [, init] = posts(fetchMock, 'POST')[0] ?? [];
    expect(JSON.parse(String(init?.body))).toEqual({ from: 'cp', to: 'sp', quantity: 15 });
  });

  it('is not offered without coins', async () => {
    serve(backpack, [buildItem()], () => undefined);
    renderView(backpack);
    expect(await screen.findByRole('button', { name: 'Arrow, quantity 20' })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Convert coins' })).not.toBeInTheDocument();
  });
});

describe('Delete container', () => {
  it('is not offered for the primary container', async () => {
    serve(backpack, [], () => undefined);
    renderView(backpack);
    expect(await screen.findByText('No items found.')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Delete container' })).not.toBeInTheDocument();
  });

  it("is not offered on a party's only container while it holds items (nowhere for them to go)", async () => {
    // The reviewer's case: a player on the Party Stash, which holds items and has no other party container.
    const stash = { ...otherOwners, items_count: 3 };
    serve(stash, [copper], () => undefined);
    renderView(stash);
    expect(await screen.findByRole('button', { name: 'Copper piece, quantity 150' })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Delete container' })).not.toBeInTheDocument();
  });

  const wagon = buildContainer({
    id: 'container-10',
    name: 'Wagon',
    is_primary: false,
    owner: { type: 'party', id: 'party-1', name: 'The Company' },
  });
  /** The party's answers: collaboration allowed, and the viewer's role in the party. */
  const partyAnswers =
    (role: 'gm' | 'manager' | 'player'): Answer =>
    (url) => {
      if (url === '/api/v1/subscription/check_feature')
        return success({ allowed: true, feature: 'party_collaboration' });
      if (url === '/api/v1/parties/party-1')
        return success(buildParty({ id: 'party-1', user_role: role, is_gm: role === 'gm' }));
      return undefined;
    };

  it.each(['gm', 'manager'] as const)(
    'is offered on an empty party container to the %s, while the party has another',
    async (role) => {
      const stash = { ...otherOwners, items_count: 0 };
      serve(stash, [], partyAnswers(role));
      renderView(stash, vi.fn(), [backpack, pouch, stash, wagon]);
      expect(await screen.findByRole('button', { name: 'Delete container' })).toBeInTheDocument();
    },
  );

  it("is not offered on a party's container to a player, who may still move items in and out", async () => {
    const stash = { ...otherOwners, items_count: 0 };
    const fetchMock = serve(stash, [], partyAnswers('player'));
    renderView(stash, vi.fn(), [backpack, pouch, stash, wagon]);
    expect(await screen.findByText('No items found.')).toBeInTheDocument();
    await waitFor(() =>
      expect(fetchMock.mock.calls.some(([url]) => String(url) === '/api/v1/parties/party-1')).toBe(true),
    );
    await waitFor(() => expect(checks(fetchMock)).toHaveLength(1));
    expect(screen.queryByRole('button', { name: 'Delete container' })).not.toBeInTheDocument();
  });

  it("is not offered on the party's last container, even to the GM", async () => {
    const stash = { ...otherOwners, items_count: 0 };
    serve(stash, [], partyAnswers('gm'));
    renderView(stash, vi.fn(), [backpack, pouch, stash]);
    expect(await screen.findByRole('button', { name: 'Edit container' })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Delete container' })).not.toBeInTheDocument();
  });

  it("is not offered on a party's container to a member whose plan lacks party collaboration", async () => {
    const stash = { ...otherOwners, items_count: 0 };
    const fetchMock = serve(stash, [], (url) =>
      url === '/api/v1/subscription/check_feature'
        ? success({ allowed: false, feature: 'party_collaboration' })
        : undefined,
    );
    renderView(stash);
    await waitFor(() => expect(checks(fetchMock)).toHaveLength(1));
    expect(await screen.findByText('No items found.')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Delete container' })).not.toBeInTheDocument();
  });

  it('is not offered to a member who may only look', async () => {
    const stash = { ...otherOwners, items_count: 0, can_act: false };
    serve(stash, [], () => undefined);
    renderView(stash);
    expect(await screen.findByText('No items found.')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Delete container' })).not.toBeInTheDocument();
  });

  it("asks where the items go (the owner's containers only), deletes, then shows the primary container", async () => {
    const fetchMock = serve(pouch, [copper], (_url, init) =>
      init.method === 'DELETE' ? new Response(null, { status: 204 }) : undefined,
    );
    const onSelect = renderView(pouch);
    fireEvent.click(await screen.findByRole('button', { name: 'Delete container' }));
    const dialog = await screen.findByRole('dialog', { name: 'Delete container' });
    const destination = within(dialog).getByRole('combobox', { name: 'Move its items to' });
    expect(destination).toHaveValue('Backpack (Aria) · 0% full · 0/20 slots');
    fireEvent.click(destination);
    expect((await screen.findAllByRole('option')).map((o) => o.textContent)).toEqual([
      'Backpack (Aria) · 0% full · 0/20 slots',
    ]);
    fireEvent.click(within(dialog).getByRole('button', { name: 'Delete Container' }));
    await waitFor(() => expect(onSelect).toHaveBeenCalledWith('container-1'));
    const [url] = posts(fetchMock, 'DELETE')[0] ?? [];
    expect(String(url)).toBe('/api/v1/containers/container-2?destination_container_id=container-1');
  });

  it('gives the focus to the Source select once the container is deleted, not to the page', async () => {
    serve(pouch, [copper], (_url, init) =>
      init.method === 'DELETE' ? new Response(null, { status: 204 }) : undefined,
    );
    const user = userEvent.setup();
    const onSelect = renderView(pouch);
    await user.click(await screen.findByRole('button', { name: 'Delete container' }));
    const dialog = await screen.findByRole('dialog', { name: 'Delete container' });
    await user.click(within(dialog).getByRole('button', { name: 'Delete Container' }));
    await waitFor(() => expect(onSelect).toHaveBeenCalledWith('container-1'));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    await waitFor(() => expect(screen.getByRole('combobox', { name: 'Source' })).toHaveFocus());
    // And it stays there: the closed dialog does not hand it back to Delete container.
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(screen.getByRole('combobox', { name: 'Source' })).toHaveFocus();
  });

  it.each([
    [1, 'Delete Belt Pouch? Its 1 item stack moves to the container you choose.'],
    [3, 'Delete Belt Pouch? Its 3 item stacks move to the container you choose.'],
  ])('says where %i item stack(s) go, in the words for their number', async (count, said) => {
    const holding = { ...pouch, items_count: count };
    serve(holding, [copper], () => undefined);
    renderView(holding);
    fireEvent.click(await screen.findByRole('button', { name: 'Delete container' }));
    const dialog = await screen.findByRole('dialog', { name: 'Delete container' });
    expect(within(dialog).getByText(/^Delete Belt Pouch\?/)).toHaveTextContent(
      `${said} This action cannot be undone.`,
    );
  });

  it("shows the server's refusal and stays on the container", async () => {
    const emptyPouch = { ...pouch, items_count: 0 };
    serve(emptyPouch, [], (_url, init) =>
      init.method === 'DELETE' ? failure(409, 'CONFLICT', inventoryMessages.containerNotEmpty) : undefined,
    );
    const toastError = vi.spyOn(toast, 'error');
    const onSelect = renderView(emptyPouch);
    fireEvent.click(await screen.findByRole('button', { name: 'Delete container' }));
    const dialog = await screen.findByRole('dialog', { name: 'Delete container' });
    expect(within(dialog).queryByRole('combobox')).not.toBeInTheDocument();
    fireEvent.click(within(dialog).getByRole('button', { name: 'Delete Container' }));
    expect(await within(dialog).findByRole('alert')).toHaveTextContent(inventoryMessages.containerNotEmpty);
    expect(toastError).toHaveBeenCalledWith(inventoryMessages.containerNotEmpty);
    expect(onSelect).not.toHaveBeenCalled();
  });
});
