import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { useUiStore } from '../../../stores/ui-store';
import { failure, jsonResponse, mockFetch, success } from '../../../test/fixtures';
import { pageMeta } from '../../../test/party-fixtures';
import { restoreViewportAfterEach, setViewport } from '../../../test/viewport';
import { buildLootItemTemplate } from '../../loot/test/loot-fixtures';
import type { ContainerOwner } from '../api/inventory-api';
import { buildContainer, buildItem, buildPartyStash, renderWithProviders } from '../test/inventory-fixtures';
import { InventoryWorkspace } from './inventory-workspace';

afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
  sessionStorage.clear();
});

const party = { id: 'p-1', name: 'Lanterns' };
const backpack = buildContainer({ id: 'c-pack', name: 'Backpack', party_id: party.id, items_count: 1 });
const pouch = buildContainer({ id: 'c-pouch', name: 'Belt Pouch', party_id: party.id, is_primary: false });
const stash = buildPartyStash(party, { id: 'c-stash', items_count: 1 });
const daggers = buildItem({
  id: 'i-dagger',
  name: 'Dagger',
  quantity: 5,
  weight: 1,
  totalWeight: 5,
  container_id: backpack.id,
});
const rope = buildItem({ id: 'i-rope', name: 'Rope', quantity: 2, container_id: stash.id });
const gold = buildItem({
  id: 'i-gold',
  name: 'Gold piece',
  quantity: 3,
  container_id: pouch.id,
  item_template: { name: 'Gold piece', stack_size: 0, tags: ['currency'], metadata: {}, coin: 'gp' },
});
const longsword = buildLootItemTemplate();

const personal = 'inventory_actions_personal_monthly';
const partyActions = 'inventory_actions_party_monthly';

/** A server whose check_limit says which allowances are used up, recording every change asked of it. */
function server(usedUp: { personal?: boolean; party?: boolean }) {
  const changes: string[] = [];
  const fetchMock = mockFetch(({ url, init }) => {
    const { pathname } = new URL(url, 'http://test');
    const method = init.method ?? 'GET';
    if (pathname === '/api/v1/subscription/check_limit') {
      const { resource } = JSON.parse(String(init.body)) as { resource: string };
      const spent =
        resource === personal ? usedUp.personal : resource === partyActions ? usedUp.party : false;
      const limit = resource === personal ? 100 : 200;
      return success({
        allowed: !spent,
        resource,
        limit,
        used: spent ? limit : 3,
        remaining: spent ? 0 : limit - 3,
        ...(spent ? { message: `Your Free plan allows ${limit} ${resource}. Upgrade to do more.` } : {}),
      });
    }
    if (pathname === '/api/v1/subscription/check_feature')
      return success({ allowed: true, feature: 'party_collaboration' });
    if (method !== 'GET') {
      changes.push(`${method} ${pathname}`);
      return failure(403, 'LIMIT_EXCEEDED', 'Plan limit reached');
    }
    for (const container of [backpack, pouch, stash]) {
      if (pathname === `/api/v1/containers/${container.id}`) return success(container);
      if (pathname === `/api/v1/containers/${container.id}/items`) {
        const items = [daggers, rope, gold].filter((item) => item.container_id === container.id);
        return jsonResponse(200, { status: 'success', data: items, meta: pageMeta(1, 20) });
      }
    }
    if (pathname === `/api/v1/item_instances/${daggers.id}`) return success(daggers);
    if (pathname === `/api/v1/item_instances/${rope.id}`) return success(rope);
    if (pathname === '/api/v1/search/items') return success([longsword]);
    if (pathname.startsWith('/api/v1/item_instances'))
      return jsonResponse(200, { status: 'success', data: [daggers], meta: pageMeta(1, 20) });
    return failure(404, 'RESOURCE_NOT_FOUND', `No fake for ${pathname}`);
  });
  return { fetchMock, changes };
}

function renderWorkspace(left = backpack.id, createOwner: ContainerOwner | null = null) {
  return renderWithProviders(
    <InventoryWorkspace
      owner="Aria"
      containers={[backpack, pouch, stash]}
      initialLeft={{ tab: 'container', containerId: left }}
      initialRight={{ tab: 'container', containerId: null }}
      inParty
      partyId={party.id}
      createOwner={createOwner}
    />,
  );
}

/** The item's dialog, once its actions know the month's allowances. */
async function openItem(name: string) {
  const user = userEvent.setup();
  await user.click(await screen.findByRole('button', { name: new RegExp(`^${name}, quantity`) }));
  const dialog = await screen.findByRole('dialog');
  return { user, dialog };
}

describe('InventoryWorkspace at the month’s inventory-action limit', { timeout: 20_000 }, () => {
  restoreViewportAfterEach();
  beforeEach(() => {
    setViewport(1280, 800);
    useUiStore.setState({ toasts: [] });
  });

  it('offers a personal move disabled, with why, once the personal allowance is used up; the stash stays open', async () => {
    const { changes } = server({ personal: true });
    renderWorkspace();
    await screen.findByTestId('upgrade-prompt');
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Move Dagger to...' }));
    const pouchItem = await screen.findByRole('menuitem', { name: /^Belt Pouch/ });
    expect(pouchItem).toBeDisabled();
    expect(pouchItem).toHaveTextContent('No personal inventory actions left this month');
    // A move into the party's stash spends the party's allowance, not the personal one (server rule).
    const stashItem = screen.getByRole('menuitem', { name: /^Party Stash/ });
    expect(stashItem).toBeEnabled();
    expect(screen.getByRole('menuitem', { name: 'See upgrade options' })).toHaveAttribute(
      'href',
      `/subscription/upgrade?resource=${personal}`,
    );
    await user.click(pouchItem);
    expect(changes).toEqual([]);
  });

  it('puts focus on the way to the upgrade when every destination is closed, so the keyboard can reach it', async () => {
    server({ personal: true, party: true });
    renderWorkspace();
    const user = userEvent.setup();
    const moveButton = await screen.findByRole('button', { name: 'Move Dagger to...' });
    moveButton.focus();
    await user.keyboard('{Enter}');
    const upgrade = await screen.findByRole('menuitem', { name: 'See upgrade options' });
    for (const name of [/^Belt Pouch/, /^Party Stash/]) {
      await waitFor(() => expect(screen.getByRole('menuitem', { name })).toBeDisabled());
    }
    await waitFor(() => expect(upgrade).toHaveFocus());
  });

  it('shows what a change of the stack would spend disabled, says why, and sends nothing when pressed', async () => {
    const { changes } = server({ personal: true });
    renderWorkspace();
    await screen.findByTestId('upgrade-prompt');
    const { user, dialog } = await openItem('Dagger');
    const split = await within(dialog).findByRole('button', { name: 'Split' });
    await waitFor(() => expect(split).toHaveAttribute('aria-disabled', 'true'));
    expect(split).toHaveAccessibleDescription(/No personal inventory actions left this month/);
    const give = within(dialog).getByRole('button', { name: 'Give to...' });
    expect(give).toHaveAttribute('aria-disabled', 'true');
    expect(give).toHaveAccessibleDescription(/No personal inventory actions left this month/);
    // What spends nothing stays: renaming, cloning, destroying; and Transfer, the stash being open still.
    for (const name of ['Edit', 'Transfer', 'Clone to template', 'Destroy']) {
      expect(within(dialog).getByRole('button', { name })).not.toHaveAttribute('aria-disabled');
    }
    await user.click(split);
    expect(within(dialog).queryByRole('heading', { name: 'Split stack' })).not.toBeInTheDocument();
    await user.click(give);
    expect(within(dialog).queryByRole('heading', { name: 'Give to...' })).not.toBeInTheDocument();
    // Edit keeps the name open, and only its quantity (a change that counts) is closed.
    await user.click(within(dialog).getByRole('button', { name: 'Edit' }));
    expect(within(dialog).getByRole('textbox', { name: /Name/ })).toBeEnabled();
    const quantity = within(dialog).getByRole('textbox', { name: 'Quantity' });
    expect(quantity).toBeDisabled();
    expect(quantity).toHaveAccessibleDescription(/No personal inventory actions left this month/);
    expect(changes).toEqual([]);
  });

  it('closes a move out of the stash, which spends the party allowance, while personal changes stay open', async () => {
    const { changes } = server({ party: true });
    renderWorkspace(stash.id);
    await screen.findByTestId('upgrade-prompt');
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Move Rope to...' }));
    for (const name of [/^Backpack/, /^Belt Pouch/]) {
      const item = await screen.findByRole('menuitem', { name });
      expect(item).toBeDisabled();
      expect(item).toHaveTextContent('No party inventory actions left this month');
    }
    await user.keyboard('{Escape}');
    const { dialog } = await openItem('Rope');
    const transfer = await within(dialog).findByRole('button', { name: 'Transfer' });
    await waitFor(() => expect(transfer).toHaveAttribute('aria-disabled', 'true'));
    expect(within(dialog).getByRole('button', { name: 'Split' })).toHaveAttribute('aria-disabled', 'true');
    expect(changes).toEqual([]);
  });

  it('closes what spends the container’s allowance (convert, delete, a new container), not its edit', async () => {
    const { changes } = server({ personal: true });
    renderWorkspace(pouch.id, { type: 'character', id: 'character-1' });
    await screen.findByTestId('upgrade-prompt');
    const user = userEvent.setup();
    for (const name of ['Convert coins', 'Delete container', 'New Container']) {
      const button = await screen.findByRole('button', { name });
      await waitFor(() => expect(button).toHaveAttribute('aria-disabled', 'true'));
      expect(button).toHaveAccessibleDescription(/No personal inventory actions left this month/);
      await user.click(button);
      expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    }
    expect(screen.getByRole('button', { name: 'Edit container' })).not.toHaveAttribute('aria-disabled');
    expect(changes).toEqual([]);
  });

  it('lists a Market destination whose allowance is used up as disabled, with why, and adds nothing there', async () => {
    server({ personal: true });
    renderWorkspace();
    await screen.findByTestId('upgrade-prompt');
    const user = userEvent.setup();
    await user.click(await screen.findByRole('tab', { name: /Market/ }));
    const add = await screen.findByRole('button', { name: `Add ${longsword.name}` });
    expect(add).toBeDisabled();
    await user.click(screen.getByRole('combobox', { name: 'Add to' }));
    expect(
      await screen.findByRole('option', {
        name: /Belt Pouch.*No personal inventory actions left this month/,
      }),
    ).toHaveAttribute('data-combobox-disabled', 'true');
    expect(screen.getByRole('option', { name: /Party Stash/ })).not.toHaveAttribute('data-combobox-disabled');
  });

  it('closes Process Queue, with why, when no queued stack could go for a used-up allowance', async () => {
    sessionStorage.setItem('haversack-transfer-queue:signed-out:/:items', JSON.stringify([daggers]));
    sessionStorage.setItem('haversack-transfer-queue:signed-out:/:destination', JSON.stringify(pouch.id));
    const { changes } = server({ personal: true });
    renderWorkspace();
    await screen.findByTestId('upgrade-prompt');
    const process = await screen.findByRole('button', { name: 'Process Queue' });
    await waitFor(() => expect(process).toHaveAttribute('aria-disabled', 'true'));
    expect(process).toHaveAccessibleDescription(/No personal inventory actions left this month/);
    await userEvent.setup().click(process);
    expect(changes).toEqual([]);
    // It waits in the queue, to go once the month turns or the plan allows more.
    expect(
      within(screen.getByRole('list', { name: 'Queued items' })).getByText(/Dagger/),
    ).toBeInTheDocument();
  });

  it('keeps every action open while the allowances have room', async () => {
    const { fetchMock } = server({});
    renderWorkspace(backpack.id, { type: 'character', id: 'character-1' });
    await waitFor(() =>
      expect(fetchMock.mock.calls.filter(([url]) => String(url).endsWith('/check_limit'))).toHaveLength(2),
    );
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Move Dagger to...' }));
    expect(await screen.findByRole('menuitem', { name: /^Belt Pouch/ })).toBeEnabled();
    expect(screen.getByRole('menuitem', { name: /^Party Stash/ })).toBeEnabled();
    expect(screen.queryByText(/inventory actions left this month/)).not.toBeInTheDocument();
    await user.keyboard('{Escape}');
    const { dialog } = await openItem('Dagger');
    for (const name of ['Edit', 'Transfer', 'Give to...', 'Split', 'Destroy']) {
      expect(within(dialog).getByRole('button', { name })).not.toHaveAttribute('aria-disabled');
    }
    expect(screen.getByRole('button', { name: 'New Container', hidden: true })).not.toHaveAttribute(
      'aria-disabled',
    );
  });
});
