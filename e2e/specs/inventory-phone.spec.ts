import { expect, type Page, test } from '@playwright/test';
import { expectAccessible } from '../support/a11y';
import { newAccount, signUpThroughApi } from '../support/accounts';
import { addItem, api } from '../support/api';
import { expectInventoryOf } from '../support/inventory';
import { withMotion } from '../support/motion';
import { picture, screenshotBothWidths } from '../support/screenshots';
import { settleAnimations } from '../support/settle';
import { dismissToasts } from '../support/toasts';
import { swipe } from '../support/touch';

// Every transition drawn: the phone and drag flows are where motion meets the finger.
test.use(withMotion);

interface Character {
  id: string;
  primary_container_id: string;
}
interface Container {
  id: string;
  name: string;
}
interface Stack {
  id: string;
  name: string;
  quantity: number;
  container_id: string;
}
interface LedgerEntry {
  transaction_type: string;
  quantity: number | null;
  transactable_data: { name: string | null };
  source_location_data: { id: string | null; name: string | null };
  destination_location_data: { id: string | null; name: string | null };
}

async function ledger(page: Page, characterId: string, type: string) {
  const data = await api<{ transactions: LedgerEntry[] }>(
    page,
    'GET',
    `/transactions/character/${characterId}?per_page=100&transaction_type=${type}`,
  );
  return data.transactions;
}

async function items(page: Page, containerId: string) {
  return api<Stack[]>(page, 'GET', `/containers/${containerId}/items?per_page=100`);
}

/** A fresh account with one character (whose main container is "Backpack"), through the API. */
async function setUp(page: Page, prefix: string, name: string) {
  await signUpThroughApi(page, newAccount(prefix));
  return api<Character>(page, 'POST', '/characters', {
    character: { name, max_weight: 100, max_slots: 20 },
  });
}

async function newContainer(page: Page, characterId: string, name: string) {
  return api<Container>(page, 'POST', `/characters/${characterId}/containers`, { container: { name } });
}

async function openWorkspace(page: Page, containerId: string, owner: string, device: string) {
  await page.goto(`/containers/${containerId}`);
  await expectInventoryOf(page, owner);
  await expect(page.getByTestId('inventory-workspace')).toHaveAttribute('data-device', device);
}

/** Axe judges a control under the pointer by its hover colours; check a dialog at rest. */
async function checkDialog(page: Page, name: string) {
  await dismissToasts(page);
  await page.mouse.move(0, 0);
  await expectAccessible(page, name);
  await picture(page, `${name}-1280.png`);
}

test.describe('on a phone', () => {
  test.use({ viewport: { width: 375, height: 812 }, hasTouch: true, isMobile: true });

  test('a player swipes rows with a finger: left queues, right quick-transfers, up and down only scrolls', async ({
    page,
  }) => {
    test.setTimeout(120_000);
    const character = await setUp(page, 'thief', 'Nim Quickfingers');
    const pouch = await newContainer(page, character.id, 'Belt Pouch');
    await addItem(page, character.primary_container_id, 'Longsword', 1);
    await addItem(page, character.primary_container_id, 'Dagger', 1);
    // Enough rows below them that the page scrolls on a phone.
    for (const filler of [
      'Club',
      'Sickle',
      'Dart',
      'Sling',
      'Whip',
      'Abacus',
      'Bell',
      'Blanket',
      'Book',
      'Candle',
    ]) {
      await addItem(page, character.primary_container_id, filler, 1);
    }

    await openWorkspace(page, character.primary_container_id, 'Nim Quickfingers', 'mobile');
    const list = page.getByTestId('panel-left');
    const longsword = list.getByRole('button', { name: 'Longsword, quantity 1' });
    const dagger = list.getByRole('button', { name: 'Dagger, quantity 1' });
    await expect(longsword).toBeVisible();
    await expect(dagger).toBeVisible();
    // A row's own buttons are a finger's width on a phone (44 px), pressed at the table.
    for (const name of ['More actions for Longsword', 'Move Longsword to...']) {
      const box = await list.getByRole('button', { name, exact: true }).boundingBox();
      expect(box && box.width >= 44 && box.height >= 44, `${name}: ${JSON.stringify(box)}`).toBe(true);
    }
    const queue = page.getByTestId('transfer-queue');
    await expect(queue).toBeVisible();
    const queued = queue.getByRole('button', { name: /^Remove .* from queue$/ });
    await expect(queued).toHaveCount(0);

    // Swipe left (past the 60 px threshold): the longsword waits in the queue, and no sheet opens.
    await swipe(page, longsword, -150);
    await expect(queue.getByText('Longsword ×1')).toBeVisible();
    await expect(page.getByTestId('toast-info')).toHaveText('Longsword added to the queue');
    await expect(queued).toHaveCount(1);
    await expect(page.getByRole('dialog')).toHaveCount(0);
    await dismissToasts(page);
    // The phone screen as a player sees it, from the top: header, source, first rows, the queue bar.
    await page.evaluate(() => window.scrollTo({ top: 0, behavior: 'instant' }));
    await expect.poll(() => page.evaluate(() => window.scrollY)).toBe(0);
    await settleAnimations(page);
    await picture(page, 'inventory-phone-queue-375.png');
    await expectAccessible(page, 'inventory-phone-queue');

    // A vertical drag with some sideways drift is a scroll (rows are touch-action: pan-y): the page
    // scrolls and nothing queues.
    await dagger.evaluate((element) => element.scrollIntoView({ block: 'center', behavior: 'instant' }));
    const scrollY = () => page.evaluate(() => window.scrollY);
    const before = await scrollY();
    expect(before).toBeGreaterThan(0);
    await swipe(page, dagger, -70, 250);
    await expect.poll(scrollY, { message: 'the drag scrolled the page back up' }).toBeLessThan(before);
    await expect(dagger).toBeVisible();
    await expect(queue.getByText('Dagger ×1')).toBeHidden();
    await expect(queued).toHaveCount(1);
    await expect(page.getByRole('dialog')).toHaveCount(0);

    // Swipe right without a destination: the queue asks for one and the dagger stays.
    await swipe(page, dagger, 150);
    await expect(queue.getByText('Please select a destination')).toBeVisible();
    await expect(dagger).toBeVisible();

    // Choose the belt pouch; now a swipe right moves the whole dagger stack there at once.
    // The pack on screen is not offered: the belt pouch is the only destination, chosen by keyboard.
    const destination = queue.getByRole('combobox', { name: 'Destination' });
    await destination.focus();
    await destination.press('ArrowDown');
    await expect(page.getByRole('option')).toHaveCount(1);
    await destination.press('Enter');
    await expect(queue.getByRole('combobox', { name: 'Destination' })).toHaveValue(/^Belt Pouch/);
    await expect(queue.getByText('Please select a destination')).toBeHidden();
    await swipe(page, dagger, 150);
    await expect(page.getByText('Item transferred successfully')).toBeVisible();
    await expect(dagger).toBeHidden();
    await expect(longsword).toBeVisible();
    // The quick transfer left the queue alone.
    await expect(queue.getByText('Longsword ×1')).toBeVisible();
    await expect(queued).toHaveCount(1);
    // A reload at the table (a phone that slept) keeps the queue and its destination.
    await page.reload();
    await expect(longsword).toBeVisible();
    await expect(queue.getByText('Longsword ×1')).toBeVisible();
    await expect(queue.getByRole('combobox', { name: 'Destination' })).toHaveValue(/^Belt Pouch/);
    await expect(queued).toHaveCount(1);

    // The belt pouch holds the dagger, and the ledger has the transfer.
    expect((await items(page, pouch.id)).map((s) => `${s.name} ×${s.quantity}`)).toEqual(['Dagger ×1']);
    const transfers = await ledger(page, character.id, 'transfer');
    expect(transfers).toHaveLength(1);
    expect(transfers[0]).toMatchObject({
      transaction_type: 'transfer',
      quantity: 1,
      transactable_data: { name: 'Dagger' },
      source_location_data: { id: character.primary_container_id },
      destination_location_data: { id: pouch.id, name: expect.stringMatching(/^Belt Pouch/) },
    });
    await list.getByRole('combobox', { name: 'Source' }).click();
    await page.getByRole('option', { name: /^Belt Pouch/ }).click();
    await expect(list.getByRole('button', { name: 'Dagger, quantity 1' })).toBeVisible();
    await dismissToasts(page);
    await settleAnimations(page);
    await picture(page, 'inventory-phone-belt-pouch-375.png');

    // The marketplace keeps its search in view on a phone and folds the other filters away.
    await page.goto('/marketplace');
    await expect(page.getByRole('heading', { level: 1, name: 'Marketplace' })).toBeVisible();
    await expect(page.getByRole('textbox', { name: 'Search' })).toBeVisible();
    await expect(page.getByRole('textbox', { name: 'Tags' })).toBeHidden();
    await page.getByRole('button', { name: 'More filters' }).click();
    await page.getByRole('textbox', { name: 'Tags' }).fill('weapon');
    await page.getByRole('button', { name: 'Fewer filters' }).click();
    await expect(page.getByRole('textbox', { name: 'Tags' })).toBeHidden();
    await expect(page.getByRole('button', { name: 'More filters (1 on)' })).toBeVisible();
    await expect(page.getByRole('link', { name: 'Longsword', exact: true })).toBeVisible();
    await settleAnimations(page);
    await expectAccessible(page, 'marketplace-phone');
    await picture(page, 'marketplace-phone-375.png', { fullPage: true });
  });

  test('with the on-screen keyboard up, a dialog keeps its buttons in sight above it', async ({ page }) => {
    const character = await setUp(page, 'typist', 'Wren Inkwell');
    await openWorkspace(page, character.primary_container_id, 'Wren Inkwell', 'mobile');
    // The page asks Android's Chrome to shrink to what the keyboard leaves, so a dialog fits above it.
    await expect(page.locator('meta[name="viewport"]')).toHaveAttribute(
      'content',
      /interactive-widget=resizes-content/,
    );

    await page.getByRole('button', { name: 'New Container' }).tap();
    const dialog = page.getByRole('dialog', { name: 'Create New Container' });
    const name = dialog.getByRole('textbox', { name: 'Container Name' });
    await expect(name).toBeFocused();
    // About what an 812 px phone shows above its keyboard and the browser's bar: the fields scroll, and
    // the row with Create Container stays at the dialog's foot, whole and not covered.
    await page.setViewportSize({ width: 375, height: 320 });
    await settleAnimations(page);
    await page.keyboard.type('Scroll Case');
    const create = dialog.getByRole('button', { name: 'Create Container' });
    await expect(create).toBeInViewport({ ratio: 1 });
    await expect(dialog.getByRole('button', { name: 'Cancel' })).toBeInViewport({ ratio: 1 });
    const hit = await create.evaluate((button) => {
      const box = button.getBoundingClientRect();
      return button.contains(document.elementFromPoint(box.x + box.width / 2, box.y + box.height / 2));
    });
    expect(hit, 'nothing covers Create Container').toBe(true);
    await expect(name).toBeInViewport();

    await create.tap();
    await expect(dialog).toBeHidden();
    await page.setViewportSize({ width: 375, height: 812 });
    const containers = await api<Container[]>(page, 'GET', `/characters/${character.id}/containers`);
    expect(containers.map((container) => container.name)).toContain('Scroll Case');
  });
});

test.describe('on a desktop', () => {
  test.use({ viewport: { width: 1280, height: 800 }, hasTouch: false, isMobile: false });

  test('a player merges two stacks, converts coins and deletes a container that still holds items', async ({
    page,
  }) => {
    test.setTimeout(150_000);
    const character = await setUp(page, 'merchant', 'Odo Coinpurse');
    const chest = await newContainer(page, character.id, 'Chest');
    const saddlebag = await newContainer(page, character.id, 'Saddlebag');
    // Two stacks of arrows in the chest: 10 added, then 4 split off (one POST would make one stack).
    const [arrows] = await addItem<Stack[]>(page, chest.id, 'Arrow', 10);
    if (!arrows) throw new Error('no arrow stack was created');
    await api(page, 'POST', `/item_instances/${arrows.id}/split`, { quantity: 4 });
    await addItem(page, chest.id, 'Copper piece', 250);

    await openWorkspace(page, chest.id, 'Odo Coinpurse', 'desktop');
    const panel = page.getByTestId('panel-left');
    await expect(panel.getByRole('combobox', { name: 'Source' })).toHaveValue(/^Chest/);
    await expect(panel.getByRole('button', { name: 'Arrow, quantity 6' })).toBeVisible();
    await expect(panel.getByRole('button', { name: 'Arrow, quantity 4' })).toBeVisible();
    await expect(panel.getByRole('button', { name: 'Copper piece, quantity 250' })).toBeVisible();

    // Merge: the stack of 4 joins the stack of 6.
    await panel.getByRole('button', { name: 'Arrow, quantity 4' }).click();
    const detail = page.getByRole('dialog', { name: 'Arrow ×4' });
    await detail.getByRole('button', { name: 'Merge with another stack' }).click();
    const target = detail.getByRole('combobox', { name: 'Stack to merge with' });
    await target.click();
    await page.getByRole('option', { name: 'Arrow ×6' }).click();
    await expect(target).toHaveValue('Arrow ×6');
    await checkDialog(page, 'inventory-merge-stacks');
    await detail.getByRole('button', { name: 'Merge Stacks' }).click();
    await expect(page.getByText('Stacks merged: Arrow ×10')).toBeVisible();
    await expect(detail).toBeHidden();
    await expect(panel.getByRole('button', { name: 'Arrow, quantity 10' })).toBeVisible();
    await expect(panel.getByRole('button', { name: /^Arrow, quantity/ })).toHaveCount(1);
    const merges = await ledger(page, character.id, 'merge');
    expect(merges).toHaveLength(1);
    expect(merges[0]).toMatchObject({ quantity: 4, transactable_data: { name: 'Arrow' } });

    // Convert coins: 250 cp → 2 gp, 50 cp stay (only whole gold converts).
    await panel.getByRole('button', { name: 'Convert coins' }).click();
    const convert = page.getByRole('dialog', { name: 'Convert coins' });
    await expect(convert.getByText('Chest holds 250 cp.')).toBeVisible();
    await expect(convert.getByRole('combobox', { name: 'From' })).toHaveValue('Copper piece (cp)');
    await convert.getByRole('combobox', { name: 'To' }).click();
    await page.getByRole('option', { name: 'Gold piece (gp)' }).click();
    await expect(convert.getByRole('combobox', { name: 'To' })).toHaveValue('Gold piece (gp)');
    await checkDialog(page, 'inventory-convert-cp-gp');
    await convert.getByRole('button', { name: 'Convert' }).click();
    await expect(page.getByText('Converted 200 cp to 2 gp')).toBeVisible();
    await expect(convert).toBeHidden();
    await expect(panel.getByRole('button', { name: 'Gold piece, quantity 2' })).toBeVisible();
    await expect(panel.getByRole('button', { name: 'Copper piece, quantity 50' })).toBeVisible();
    const conversions = await ledger(page, character.id, 'currency_conversion');
    expect(conversions.length).toBeGreaterThanOrEqual(1);

    // Delete the chest, its three stacks going to the saddlebag (the dialog offers the main one first).
    await panel.getByRole('button', { name: 'Delete container' }).click();
    const remove = page.getByRole('dialog', { name: 'Delete container' });
    await expect(remove.getByText(/Its 3 item stacks move to the container you choose/)).toBeVisible();
    const destination = remove.getByRole('combobox', { name: 'Move its items to' });
    await expect(destination).toHaveValue(/^Backpack/);
    await destination.click();
    await page.getByRole('option', { name: /^Saddlebag/ }).click();
    await expect(destination).toHaveValue(/^Saddlebag/);
    await checkDialog(page, 'inventory-delete-container');
    await remove.getByRole('button', { name: 'Delete Container' }).click();
    await expect(page.getByText('Container "Chest" deleted')).toBeVisible();
    await expect(remove).toBeHidden();

    // The page was about the chest: it moves on to the main container, whose source list no longer
    // offers the chest; the saddlebag holds the chest's three stacks.
    await expect(page).toHaveURL(new RegExp(`/containers/${character.primary_container_id}$`));
    const source = panel.getByRole('combobox', { name: 'Source' });
    await expect(source).toHaveValue(/^Backpack/);
    await source.click();
    await expect(page.getByRole('option', { name: /^Chest/ })).toHaveCount(0);
    await page.getByRole('option', { name: /^Saddlebag/ }).click();
    await expect(source).toHaveValue(/^Saddlebag/);
    await expect(panel.getByRole('button', { name: 'Arrow, quantity 10' })).toBeVisible();
    await expect(panel.getByRole('button', { name: 'Gold piece, quantity 2' })).toBeVisible();
    await expect(panel.getByRole('button', { name: 'Copper piece, quantity 50' })).toBeVisible();
    await expect(panel.getByTestId('item-tile')).toHaveCount(3);
    expect((await items(page, saddlebag.id)).map((s) => `${s.name} ×${s.quantity}`).sort()).toEqual([
      'Arrow ×10',
      'Copper piece ×50',
      'Gold piece ×2',
    ]);
    const ledgerDeletions = await ledger(page, character.id, 'container_deletion');
    expect(ledgerDeletions).toHaveLength(1);

    // The chest is gone, for the API and for a fresh load of the workspace.
    const containers = await api<Container[]>(page, 'GET', `/characters/${character.id}/containers`);
    expect(containers.map((c) => c.name).sort()).toEqual(['Backpack', 'Saddlebag']);
    await openWorkspace(page, character.primary_container_id, 'Odo Coinpurse', 'desktop');
    await panel.getByRole('combobox', { name: 'Source' }).click();
    await expect(page.getByRole('option', { name: /^Saddlebag/ })).toBeVisible();
    await expect(page.getByRole('option', { name: /^Chest/ })).toHaveCount(0);
    await page.keyboard.press('Escape');
    await expect(page.getByRole('option', { name: /^Saddlebag/ })).toBeHidden();
    await dismissToasts(page);
    await page.mouse.move(0, 0);
    await expectAccessible(page, 'inventory-after-delete');
    await screenshotBothWidths(page, 'inventory-after-delete');
    await page.goto(`/containers/${chest.id}`);
    await expect(page.getByRole('heading', { level: 1, name: 'Container Not Found' })).toBeVisible();
  });
});

test.describe('on a tablet', () => {
  test.use({ viewport: { width: 800, height: 1280 }, hasTouch: true });

  test('turned to landscape while an item is being edited, the sheet keeps what was typed', async ({
    page,
  }) => {
    const character = await setUp(page, 'ranger', 'Tamsin Reed');
    await addItem(page, character.primary_container_id, 'Rope, hempen (50 feet)', 1);
    await openWorkspace(page, character.primary_container_id, 'Tamsin Reed', 'tablet');
    await page
      .getByTestId('panel-left')
      .getByRole('button', { name: /^Rope, hempen/ })
      .click();
    const sheet = page.getByRole('dialog', { name: /^Rope, hempen/ });
    await sheet.getByRole('button', { name: 'Edit' }).click();
    const name = sheet.getByRole('textbox', { name: /^Name/ });
    await name.fill('Elven rope');

    await page.setViewportSize({ width: 1280, height: 800 });
    await expect(page.getByTestId('inventory-workspace')).toHaveAttribute('data-device', 'desktop');
    await expect(name).toHaveValue('Elven rope');
    await sheet.getByRole('button', { name: 'Save' }).click();
    // Saved, the sheet shows the renamed item; it closes as a sheet.
    const renamed = page.locator('.mantine-Drawer-root').getByRole('dialog', { name: 'Elven rope' });
    await expect(renamed).toBeVisible();
    // Back on the item's view (an Escape while the form is still there only backs out of it).
    await expect(renamed.getByRole('button', { name: 'Edit' })).toBeFocused();
    await page.keyboard.press('Escape');
    await expect(renamed).toBeHidden();
    // Opened again, the item takes the shape of the device it is now on: the modal.
    await page
      .getByTestId('panel-left')
      .getByRole('button', { name: /^Elven rope/ })
      .click();
    await expect(
      page.locator('.mantine-Modal-root').getByRole('dialog', { name: /^Elven rope/ }),
    ).toBeVisible();
  });

  test('held in landscape (1024 × 768), the two panels show each stack’s whole count beside the finger-sized buttons', async ({
    page,
  }) => {
    await page.setViewportSize({ width: 1024, height: 768 });
    const character = await setUp(page, 'bard', 'Lark Ashdown');
    await addItem(page, character.primary_container_id, 'Arrow', 20);
    await addItem(page, character.primary_container_id, 'Gold piece', 150);
    await addItem(page, character.primary_container_id, 'Torch', 5);
    // A second container to move to: each card then has both its Move and its More actions buttons.
    await newContainer(page, character.id, 'Saddlebags');
    await openWorkspace(page, character.primary_container_id, 'Lark Ashdown', 'desktop');
    await page.getByText('Dual', { exact: true }).click();
    const left = page.getByTestId('panel-left');
    await expect(left.getByRole('button', { name: /^Gold piece/ })).toBeVisible();
    await settleAnimations(page);
    await picture(page, 'inventory-dual-tablet-landscape-1024.png');
    // Each panel is some 360 px wide: two columns of cards, each with its 44 px Move and More buttons.
    // The count beside them was cut to "×…" (review "tablet": the 44 px buttons' room took the line).
    for (const tile of await left.getByTestId('item-tile').all()) {
      const count = tile.getByTestId('item-tile-facts').locator('.mantine-Badge-label');
      const cut = await count.evaluate((label) => label.scrollWidth > label.clientWidth + 1);
      expect(
        cut,
        `the count "${await count.textContent()}" of ${await tile.getAttribute('data-item-name')} is cut`,
      ).toBe(false);
      // And the card's buttons cover none of its facts (the count, the weight and the worth).
      const covered = await tile.locator('xpath=..').evaluate((cell) => {
        const button = cell.querySelector('[data-testid="item-move-menu"]')?.getBoundingClientRect();
        const facts = cell.querySelectorAll('[data-testid="item-tile-facts"] > :not([aria-hidden="true"])');
        return Array.from(facts).some((fact) => {
          const r = fact.getBoundingClientRect();
          return !!button && r.right > button.left && r.bottom > button.top && r.top < button.bottom;
        });
      });
      expect(covered, `the buttons cover the facts of ${await tile.getAttribute('data-item-name')}`).toBe(
        false,
      );
    }
  });
});
