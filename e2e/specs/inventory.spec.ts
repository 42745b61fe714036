import { expect, type Page, test } from '@playwright/test';
import { checkPage } from '../support/a11y';
import { newAccount, signUpThroughApi } from '../support/accounts';
import { addItem, api, findTemplate, upgradeTo } from '../support/api';
import { expectInventoryOf } from '../support/inventory';
import { picture } from '../support/screenshots';
import { settleAnimations } from '../support/settle';

async function addFromMarket(page: Page, search: string, quantity: number) {
  const panel = page.getByTestId('panel-left');
  await panel.getByRole('textbox', { name: 'Search the marketplace' }).fill(search);
  await panel.getByRole('button', { name: `Add ${search}`, exact: true }).click();
  const dialog = page.getByRole('dialog', { name: `Add ${search}` });
  await dialog.getByRole('textbox', { name: 'Quantity' }).fill(String(quantity));
  await dialog.getByRole('button', { name: 'Add', exact: true }).click();
  await expect(page.getByText(`Added ${quantity} × ${search}`)).toBeVisible();
}

test('a player fills an inventory from the marketplace, moves arrows into a quiver, splits them, and uses the queue on a phone', async ({
  page,
}) => {
  test.setTimeout(180_000);
  await signUpThroughApi(page, newAccount('ranger'));
  const character = await api<{ id: string; primary_container_id: string }>(page, 'POST', '/characters', {
    character: { name: 'Aria Swiftarrow', max_weight: 50, max_slots: 20 },
  });

  // The character's inventory, single view, starting empty.
  await page.goto(`/containers/${character.primary_container_id}`);
  await expectInventoryOf(page, 'Aria Swiftarrow');
  await expect(page.getByText('No items found.')).toBeVisible();
  const weight = page.getByTestId('capacity-weight');
  await expect(weight).toContainText('0 / 50 lbs');

  // Ctrl+F opens the search box; Escape closes it.
  await page.keyboard.press('Control+f');
  await expect(page.getByPlaceholder('Search items...').first()).toBeFocused();
  await page.keyboard.press('Escape');
  await expect(page.getByRole('textbox', { name: 'Search items' })).toBeHidden();

  // 30 arrows (stacks of 20) and a longsword from the Market tab.
  await page.getByTestId('panel-left').getByRole('tab', { name: 'Market' }).click();
  await addFromMarket(page, 'Arrow', 30);
  await addFromMarket(page, 'Longsword', 1);
  await page.getByTestId('panel-left').getByRole('tab', { name: 'Container' }).click();
  await expect(page.getByRole('button', { name: 'Arrow, quantity 20' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Arrow, quantity 10' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Longsword, quantity 1' })).toBeVisible();
  // 30 × 0.05 lbs + 3 lbs: the bar moved.
  await expect(weight).toContainText('4.5 / 50 lbs');
  await checkPage(page, 'inventory-single');

  // Dual view; a new Quiver opens in the second panel.
  await page.getByText('Dual', { exact: true }).click();
  await expect(page.getByTestId('panel-right')).toBeVisible();
  await page.getByRole('button', { name: 'New Container' }).click();
  const create = page.getByRole('dialog', { name: 'Create New Container' });
  await expect(create.getByRole('button', { name: 'Create Container' })).toBeDisabled();
  await create.getByRole('textbox', { name: 'Container Name' }).fill('Quiver');
  await create.getByRole('textbox', { name: 'Max Weight' }).fill('5');
  await create.getByRole('button', { name: 'Create Container' }).click();
  await expect(create).toBeHidden();
  const right = page.getByTestId('panel-right');
  await expect(right.getByText('No items found.')).toBeVisible();

  // Keyboard drag: Space picks the stack up, Right jumps to the other panel, Space drops it.
  const arrows = page.getByTestId('panel-left').getByRole('button', { name: 'Arrow, quantity 20' });
  await arrows.focus();
  await page.keyboard.press('Space');
  await expect(page.getByText('Arrow ×20', { exact: true })).toBeVisible();
  await page.keyboard.press('ArrowRight');
  await expect(right).toHaveAttribute('data-drop-over', 'true');
  await page.keyboard.press('Space');
  const move = page.getByRole('dialog', { name: 'Move Arrow' });
  await expect(move.getByRole('textbox', { name: 'Quantity' })).toHaveValue('20');
  await move.getByRole('button', { name: 'Move' }).click();
  await expect(page.getByText('Item transferred successfully')).toBeVisible();
  await expect(right.getByRole('button', { name: 'Arrow, quantity 20' })).toBeVisible();
  await checkPage(page, 'inventory-dual');
  // A name wider than its tile ("Longsword") wraps whole instead of "Long…", and every tile of the row
  // keeps its buttons inside it, whatever height its neighbours take.
  const leftTiles = page.getByTestId('panel-left').getByTestId('item-tile-cell');
  const longName = leftTiles.getByTestId('item-tile').getByText('Longsword', { exact: true });
  expect(
    await longName.evaluate((el) => el.scrollWidth <= el.clientWidth && el.scrollHeight <= el.clientHeight),
  ).toBe(true);
  for (const cell of await leftTiles.all()) {
    const tile = await cell.getByTestId('item-tile').boundingBox();
    const more = await cell.getByRole('button', { name: /^More actions for / }).boundingBox();
    expect(tile && more && more.y + more.height <= tile.y + tile.height + 1).toBe(true);
  }

  // Split the quiver's stack in the item modal (default: half).
  await right.getByRole('button', { name: 'Arrow, quantity 20' }).click();
  const detail = page.getByRole('dialog', { name: 'Arrow ×20' });
  await detail.getByRole('button', { name: 'Split' }).click();
  await expect(detail.getByRole('textbox', { name: 'Split amount' })).toHaveValue('10');
  await detail.getByRole('button', { name: 'Split Stack' }).click();
  await expect(page.getByText('Stack split')).toBeVisible();
  // The toast comes a moment before the form gives way to the item (and focus to Split): an Escape in
  // between only backs out of the form.
  await expect(
    page.getByRole('dialog', { name: 'Arrow ×10' }).getByRole('button', { name: 'Split' }),
  ).toBeFocused();
  await page.keyboard.press('Escape');
  // The two stacks are alike in name and quantity: each tile says which of the two it is.
  for (const name of ['Arrow (1 of 2), quantity 10', 'Arrow (2 of 2), quantity 10']) {
    await expect(right.getByRole('button', { name, exact: true })).toBeVisible();
  }
  await expect(
    right.getByRole('button', { name: 'More actions for Arrow (2 of 2)', exact: true }),
  ).toHaveCount(1);

  // Three longswords (9 lbs) do not fit in the quiver (1 of 5 lbs): the dialog stays open with the number
  // typed, says why on the field and how many would fit, and nothing is added.
  await page.getByTestId('panel-left').getByRole('tab', { name: 'Market' }).click();
  await page
    .getByTestId('panel-left')
    .getByRole('textbox', { name: 'Search the marketplace' })
    .fill('Longsword');
  await page.getByTestId('panel-left').getByRole('button', { name: 'Add Longsword', exact: true }).click();
  const tooMany = page.getByRole('dialog', { name: 'Add Longsword' });
  await expect(tooMany.getByText('How many go to Quiver (Aria Swiftarrow)?')).toBeVisible();
  await tooMany.getByRole('textbox', { name: 'Quantity' }).fill('3');
  await tooMany.getByRole('button', { name: 'Add', exact: true }).click();
  await expect(tooMany.getByText('Item(s) would exceed weight limit (room for 1)')).toBeVisible();
  await expect(tooMany.getByRole('textbox', { name: 'Quantity' })).toHaveValue('3');
  await tooMany.getByRole('button', { name: 'Cancel' }).click();
  await expect(tooMany).toBeHidden();
  await page.getByTestId('panel-left').getByRole('tab', { name: 'Container' }).click();
  await expect(right.getByRole('button', { name: /^Longsword/ })).toHaveCount(0);

  // The ledger holds each step.
  const ledger = await api<{ transactions: { transaction_type: string }[] }>(
    page,
    'GET',
    `/transactions/character/${character.id}?per_page=100`,
  );
  const types = ledger.transactions.map((t) => t.transaction_type);
  expect(types).toEqual(expect.arrayContaining(['item_creation', 'transfer', 'split']));

  // On a phone: swipe left puts the longsword in the queue, which moves it into the quiver.
  await page.setViewportSize({ width: 375, height: 812 });
  await expect(page.getByTestId('transfer-queue')).toBeVisible();
  const sword = page.getByRole('button', { name: 'Longsword, quantity 1' });
  await sword.scrollIntoViewIfNeeded();
  const box = await sword.boundingBox();
  if (!box) throw new Error('the longsword row has no box');
  await page.mouse.move(box.x + box.width - 20, box.y + box.height / 2);
  await page.mouse.down();
  await page.mouse.move(box.x + box.width - 140, box.y + box.height / 2, { steps: 8 });
  await page.mouse.up();
  const queue = page.getByTestId('transfer-queue');
  await expect(queue.getByText('Longsword ×1')).toBeVisible();
  await queue.getByRole('button', { name: 'Process Queue' }).click();
  await expect(queue.getByText('Please select a destination')).toBeVisible();
  await queue.getByRole('combobox', { name: 'Destination' }).click();
  await page.getByRole('option', { name: /^Quiver/ }).click();
  await queue.getByRole('button', { name: 'Process Queue' }).click();
  await expect(page.getByText('Item transferred successfully').last()).toBeVisible();
  await expect(queue.getByText('Longsword ×1')).toBeHidden();
  await expect(page.getByRole('button', { name: 'Longsword, quantity 1' })).toBeHidden();
  const after = await api<{ transactions: { transaction_type: string }[] }>(
    page,
    'GET',
    `/transactions/character/${character.id}?per_page=100&transaction_type=transfer`,
  );
  expect(after.transactions.length).toBeGreaterThanOrEqual(2);

  // The bottom sheet on a phone.
  await page.getByRole('button', { name: 'Arrow, quantity 10' }).first().click();
  await expect(page.getByRole('dialog', { name: 'Arrow ×10' })).toBeVisible();
  await expect(page.getByRole('dialog').getByRole('button', { name: 'Add to Queue' })).toBeVisible();
  await picture(page, 'inventory-bottom-sheet-375.png');
  await page.keyboard.press('Escape');
  await page.setViewportSize({ width: 1280, height: 800 });

  // The marketplace page, the item pages and My Content.
  await page.goto('/marketplace');
  await page.getByRole('textbox', { name: 'Search' }).fill('Longsword');
  await expect(page.getByRole('link', { name: 'Longsword', exact: true })).toBeVisible();
  await checkPage(page, 'marketplace');
  await page.getByRole('button', { name: 'Add to Container: Longsword' }).click();
  const add = page.getByRole('dialog', { name: 'Add Longsword' });
  await expect(add.getByRole('combobox', { name: 'Container' })).not.toHaveValue('');
  await add.getByRole('button', { name: 'Add to Container' }).click();
  await expect(page.getByText('Added 1 × Longsword')).toBeVisible();

  await page.goto('/items/new');
  await page.getByRole('textbox', { name: 'Name' }).fill('Elven Rope');
  await page.getByRole('textbox', { name: 'Weight (lbs)' }).fill('1.5');
  await page.getByRole('textbox', { name: 'Base value' }).fill('12');
  await page.getByRole('textbox', { name: 'Tags' }).fill('gear, rope');
  await checkPage(page, 'item-new');
  await page.getByRole('button', { name: 'Create Item' }).click();
  await expect(page).toHaveURL(/\/items\/templates\/[0-9a-f-]{36}$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Elven Rope' })).toBeVisible();
  await checkPage(page, 'item-detail');
  await page.goto('/items');
  await expect(page.getByRole('link', { name: 'Elven Rope' })).toBeVisible();
  await checkPage(page, 'items');
  await page.goto('/my-content');
  await expect(
    page.getByRole('region', { name: 'Item templates' }).getByTestId('content-limit'),
  ).toBeVisible();
  await checkPage(page, 'my-content');
});

test('a player moves part of a stack into the party stash in dual view; the party ledger records it', async ({
  browser,
}) => {
  test.setTimeout(180_000);
  const gmPage = await (await browser.newContext()).newPage();
  await signUpThroughApi(gmPage, newAccount('gm'));
  const page = await (await browser.newContext()).newPage();
  await signUpThroughApi(page, newAccount('scout'));

  // Through the API: the GM's party and its stash; the player joins with the code and brings a character.
  // Both act on the stash, which needs a plan with party collaboration.
  await upgradeTo(gmPage, 'tier_1');
  await upgradeTo(page, 'tier_1');
  const party = await api<{ id: string; join_code: string }>(gmPage, 'POST', '/parties', {
    party: { name: 'The Silver Lantern' },
  });
  // Every new party comes with its Party Stash.
  const [stash] = await api<{ id: string; name: string }[]>(gmPage, 'GET', `/parties/${party.id}/containers`);
  if (stash?.name !== 'Party Stash') throw new Error('a new party has its Party Stash');
  await api(page, 'POST', '/parties/join', { join_code: party.join_code, role_request: 'player' });
  const character = await api<{ id: string; primary_container_id: string }>(page, 'POST', '/characters', {
    character: { name: 'Bryn Ashdown', party_id: party.id, max_weight: 50, max_slots: 20 },
  });
  const arrow = await findTemplate(page, 'Arrow');
  await api(page, 'POST', '/item_instances', {
    item_template_id: arrow.id,
    container_id: character.primary_container_id,
    quantity: 20,
  });
  const gold = await findTemplate(page, 'Gold piece');
  await api(gmPage, 'POST', '/item_instances', {
    item_template_id: gold.id,
    container_id: stash.id,
    quantity: 25,
  });

  // The party page's Inventory tab opens in dual view: the stash on the left, the character's pack on the
  // right (the next container, not the Market's long list).
  await page.goto(`/parties/${party.id}`);
  await page.getByRole('tab', { name: 'Inventory' }).click();
  const workspace = page.getByTestId('inventory-workspace');
  await expect(workspace).toHaveAttribute('data-view', 'dual');
  const left = page.getByTestId('panel-left');
  const right = page.getByTestId('panel-right');
  await expect(left.getByRole('combobox', { name: 'Source' })).toHaveValue(/^Party Stash/);
  await expect(left.getByRole('button', { name: 'Gold piece, quantity 25' })).toBeVisible();
  await expect(right.getByRole('combobox', { name: 'Source' })).toHaveValue(/Bryn Ashdown/);
  await right.getByRole('button', { name: 'Arrow, quantity 20' }).click();

  // Move 5 of the 20 arrows into the party stash from the item modal.
  const detail = page.getByRole('dialog', { name: 'Arrow ×20' });
  await detail.getByRole('button', { name: 'Transfer' }).click();
  await detail.getByRole('combobox', { name: 'Destination' }).click();
  await page.getByRole('option', { name: /^Party Stash/ }).click();
  await detail.getByRole('textbox', { name: 'Quantity to move' }).fill('5');
  await detail.getByRole('button', { name: 'Transfer' }).click();
  await expect(page.getByText('Item transferred successfully')).toBeVisible();
  await expect(detail).toBeHidden();
  await expect(left.getByRole('button', { name: 'Arrow, quantity 5' })).toBeVisible();
  await expect(right.getByRole('button', { name: 'Arrow, quantity 15' })).toBeVisible();
  await checkPage(page, 'party-inventory-dual');

  // The stash's coins convert from the panel header: 25 gp → 2 pp (20 gp convert evenly).
  await left.getByRole('button', { name: 'Convert coins' }).click();
  const convert = page.getByRole('dialog', { name: 'Convert coins' });
  await expect(convert.getByRole('combobox', { name: 'From' })).toHaveValue('Gold piece (gp)');
  await expect(convert.getByRole('combobox', { name: 'To' })).toHaveValue('Platinum piece (pp)');
  await picture(page, 'inventory-convert-coins-1280.png');
  await convert.getByRole('button', { name: 'Convert' }).click();
  await expect(page.getByText('Converted 20 gp to 2 pp')).toBeVisible();
  await expect(left.getByRole('button', { name: 'Gold piece, quantity 5' })).toBeVisible();
  await expect(left.getByRole('button', { name: 'Platinum piece, quantity 2' })).toBeVisible();

  // The party ledger, read through the API, holds the move and the conversion.
  const ledger = await api<{ transactions: { transaction_type: string; quantity: number | null }[] }>(
    page,
    'GET',
    `/transactions/party/${party.id}?per_page=100`,
  );
  // The player putting their own character's arrows into the stash is a deposit (spec/02 §3, issue 14).
  const moved = ledger.transactions.filter((t) => t.transaction_type === 'party_deposit');
  expect(moved).toHaveLength(1);
  expect(moved[0]?.quantity).toBe(5);
  expect(ledger.transactions.map((t) => t.transaction_type)).toContain('currency_conversion');
});

test('a GM without a character hands a player starting items from the stash; the ledger calls it a party-to-character transfer', async ({
  browser,
}) => {
  test.setTimeout(180_000);
  const gmPage = await (await browser.newContext()).newPage();
  await signUpThroughApi(gmPage, newAccount('gm'));
  const playerPage = await (await browser.newContext()).newPage();
  await signUpThroughApi(playerPage, newAccount('tern'));
  // The GM acts on the stash, which needs a plan with party collaboration; the GM makes no character.
  await upgradeTo(gmPage, 'tier_1');
  const party = await api<{ id: string; join_code: string }>(gmPage, 'POST', '/parties', {
    party: { name: 'The Open Road' },
  });
  const [stash] = await api<{ id: string }[]>(gmPage, 'GET', `/parties/${party.id}/containers`);
  await api(playerPage, 'POST', '/parties/join', { join_code: party.join_code, role_request: 'player' });
  await api(playerPage, 'POST', '/characters', { character: { name: 'Tern Holloway', party_id: party.id } });
  const torch = await findTemplate(gmPage, 'Torch');
  await api(gmPage, 'POST', '/item_instances', {
    item_template_id: torch.id,
    container_id: stash?.id,
    quantity: 5,
  });

  // The party's Inventory tab is the GM's workspace: the stash on the left, the player's pack beside it.
  await gmPage.goto(`/parties/${party.id}`);
  await gmPage.getByRole('tab', { name: 'Inventory' }).click();
  await expect(gmPage.getByText('You must have a character in the party')).toBeHidden();
  const left = gmPage.getByTestId('panel-left');
  const right = gmPage.getByTestId('panel-right');
  await expect(left.getByRole('combobox', { name: 'Source' })).toHaveValue(/^Party Stash/);
  await expect(right.getByRole('combobox', { name: 'Source' })).toHaveValue(/Tern Holloway/);
  await left.getByRole('button', { name: 'Torch, quantity 5' }).click();
  const detail = gmPage.getByRole('dialog', { name: 'Torch ×5' });
  await detail.getByRole('button', { name: 'Transfer' }).click();
  await detail.getByRole('combobox', { name: 'Destination' }).click();
  await gmPage.getByRole('option', { name: /^Backpack \(Tern Holloway\)/ }).click();
  await detail.getByRole('textbox', { name: 'Quantity to move' }).fill('2');
  await detail.getByRole('button', { name: 'Transfer' }).click();
  await expect(gmPage.getByText('Item transferred successfully')).toBeVisible();
  await expect(left.getByRole('button', { name: 'Torch, quantity 3' })).toBeVisible();
  await expect(right.getByRole('button', { name: 'Torch, quantity 2' })).toBeVisible();

  // The stash's own page offers the player's pack too, rather than "nowhere to move this".
  await gmPage.goto(`/containers/${stash?.id}`);
  await gmPage.getByRole('button', { name: 'Torch, quantity 3' }).first().click();
  const again = gmPage.getByRole('dialog', { name: 'Torch ×3' });
  await again.getByRole('button', { name: 'Transfer' }).click();
  await expect(again.getByRole('combobox', { name: 'Destination' })).toHaveValue(
    /^Backpack \(Tern Holloway\)/,
  );
  await again.getByRole('button', { name: 'Cancel' }).click();

  const ledger = await api<{ transactions: { transaction_type: string; quantity: number | null }[] }>(
    gmPage,
    'GET',
    `/transactions/party/${party.id}?per_page=100`,
  );
  const handed = ledger.transactions.filter((t) => t.transaction_type === 'party_to_character_transfer');
  expect(handed.map((t) => t.quantity)).toEqual([2]);
});

test('a Free player sees the party stash locked in the Move menu, with what the plan lacks and the way to upgrade', async ({
  browser,
}) => {
  const gmPage = await (await browser.newContext()).newPage();
  await signUpThroughApi(gmPage, newAccount('gm'));
  const page = await (await browser.newContext()).newPage();
  await signUpThroughApi(page, newAccount('free'));
  const party = await api<{ id: string; join_code: string }>(gmPage, 'POST', '/parties', {
    party: { name: 'The Tin Cup' },
  });
  await api(page, 'POST', '/parties/join', { join_code: party.join_code, role_request: 'player' });
  const character = await api<{ primary_container_id: string }>(page, 'POST', '/characters', {
    character: { name: 'Wren Alder', party_id: party.id },
  });
  const arrow = await findTemplate(page, 'Arrow');
  await api(page, 'POST', '/item_instances', {
    item_template_id: arrow.id,
    container_id: character.primary_container_id,
    quantity: 20,
  });

  await page.goto(`/containers/${character.primary_container_id}`);
  for (const width of [375, 1280]) {
    await page.setViewportSize({ width, height: width === 375 ? 812 : 800 });
    await page.getByRole('button', { name: 'Move Arrow to...' }).click();
    // Not offered as a move the server would refuse: locked, saying why.
    const stash = page.getByRole('menuitem', { name: /^Party Stash/ });
    await expect(stash).toBeDisabled();
    await expect(stash).toContainText('Party collaboration is not included in your plan');
    await settleAnimations(page);
    await picture(page, `inventory-plan-refusal-${width}.png`);
    await page.keyboard.press('Escape');
  }

  // A drag into the stash shows the lock while over it and stops at the drop, sending nothing.
  await page.getByText('Dual', { exact: true }).click();
  const right = page.getByTestId('panel-right');
  const source = right.getByRole('combobox', { name: 'Source' });
  await source.click();
  await page.getByRole('option', { name: /^Party Stash/ }).click();
  const arrows = page.getByTestId('panel-left').getByRole('button', { name: 'Arrow, quantity 20' });
  await arrows.focus();
  await page.keyboard.press('Space');
  // Picked up (the item follows the drag) before the arrow key, which the drag hears only once it has begun.
  await expect(page.getByText('Arrow ×20', { exact: true })).toBeVisible();
  await page.keyboard.press('ArrowRight');
  await expect(right).toHaveAttribute('data-drop-over', 'locked');
  await expect(right.getByTestId('drop-locked')).toHaveText(
    'Party collaboration is not included in your plan',
  );
  await expect(page.locator('[id^="DndLiveRegion"]')).toContainText(
    'locked: Party collaboration is not included in your plan',
  );
  await settleAnimations(page);
  await picture(page, 'inventory-drag-into-locked-stash-1280.png');
  await page.keyboard.press('Space');
  const refusal = page.getByTestId('toast-error').filter({ hasText: 'Party Stash' });
  await expect(refusal).toContainText('Party collaboration is not included in your plan');
  await expect(arrows).toBeVisible();
  const left = await api<{ quantity: number }[]>(
    page,
    'GET',
    `/containers/${character.primary_container_id}/items`,
  );
  expect(left.map((item) => item.quantity)).toEqual([20]);
  await refusal.getByRole('link', { name: 'See upgrade options' }).click();
  await expect(page).toHaveURL(/\/subscription\/upgrade\?feature=party_collaboration$/);
});

test('by keyboard, moving the last item away leaves the focus on the emptied container, not the page', async ({
  page,
}) => {
  await signUpThroughApi(page, newAccount('tidy'));
  const character = await api<{ id: string; primary_container_id: string }>(page, 'POST', '/characters', {
    character: { name: 'Keyra' },
  });
  await api(page, 'POST', `/characters/${character.id}/containers`, { container: { name: 'Pouch' } });
  await addItem(page, character.primary_container_id, 'Torch', 4);

  await page.goto(`/containers/${character.primary_container_id}`);
  await expectInventoryOf(page, 'Keyra');
  await page.getByRole('button', { name: 'Torch, quantity 4' }).focus();
  await page.keyboard.press('m');
  await expect(page.getByRole('menuitem', { name: /Pouch/ })).toBeFocused();
  await page.keyboard.press('Enter');
  const dialog = page.getByRole('dialog', { name: 'Move Torch' });
  await expect(dialog).toBeVisible();
  await page.keyboard.press('Enter');
  await expect(dialog).toBeHidden();
  await expect(page.getByTestId('items-empty')).toBeFocused();
});
