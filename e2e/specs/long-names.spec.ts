import { randomBytes } from 'node:crypto';
import { expect, type Page, test } from '@playwright/test';
import { signUpThroughApi } from '../support/accounts';
import { addItem, api, findTemplate, upgradeTo } from '../support/api';
import { picture } from '../support/screenshots';
import { dismissToasts } from '../support/toasts';

/** The page is no wider than the phone: nothing of it (the account menu, a dialog) is off to the right. */
async function expectNoSidewaysScroll(page: Page, name: string) {
  await dismissToasts(page);
  await picture(page, `long-names-${name}-375.png`, { fullPage: true });
  const width = await page.evaluate(() => document.documentElement.scrollWidth);
  expect(width, `${name} is ${width} px wide`).toBeLessThanOrEqual(375);
}

/** Every role badge shows its whole word, not "PL…" or a bare dot squeezed by the name beside it. */
async function expectWholeRoleBadges(page: Page) {
  const badges = page.getByTestId('party-role-badge');
  await expect(badges.first()).toBeVisible();
  for (const badge of await badges.all()) {
    const clipped = await badge.evaluate((el) => {
      const label = el.querySelector('.mantine-Badge-label') ?? el;
      return label.scrollWidth > label.clientWidth + 1 || label.clientWidth < 12;
    });
    expect(clipped, `the badge "${await badge.textContent()}" is cut`).toBe(false);
  }
}

test('the longest names a user may choose fit a phone: username, party, character and shop trail', async ({
  browser,
}) => {
  test.setTimeout(120_000);
  const context = await browser.newContext({
    viewport: { width: 375, height: 812 },
    hasTouch: true,
    isMobile: true,
  });
  const page = await context.newPage();
  const suffix = randomBytes(2).toString('hex');
  // 30 characters, the most a username may have.
  const username = `gandalf_the_grey_wanderer_${suffix}`;
  await signUpThroughApi(page, {
    email: `${username}@example.com`,
    username,
    password: 'Adventure1',
  });
  await upgradeTo(page, 'tier_1');
  const partyName = 'The Fellowship of the Extremely Long Party Name That Goes On And On Around The Ring';
  const party = await api<{ id: string }>(page, 'POST', '/parties', { party: { name: partyName } });
  const character = await api<{ id: string }>(page, 'POST', '/characters', {
    character: { name: 'Vexanderalathiel Nightwhisperingshadow', party_id: party.id },
  });
  const [store] = await api<{ id: string }[]>(page, 'GET', '/shop_templates?search=Wayfarer');
  if (!store) throw new Error('the General Store is not seeded');
  const shop = await api<{ id: string }>(page, 'POST', '/shop_instances', {
    shop_instance: { shop_template_id: store.id, party_id: party.id },
  });

  await page.goto('/dashboard');
  await expect(page.getByTestId('dashboard-heading')).toContainText(username);
  await expect(page.getByTestId('party-role-badge').first()).toHaveText('GM');
  await expectNoSidewaysScroll(page, 'dashboard');
  await expectWholeRoleBadges(page);
  await expect(page.getByTestId('user-menu-button')).toBeInViewport();

  await page.goto('/parties');
  await expect(page.getByRole('heading', { level: 1, name: 'My Parties' })).toBeVisible();
  await expectNoSidewaysScroll(page, 'parties');
  await expectWholeRoleBadges(page);

  await page.goto(`/parties/${party.id}`);
  await expect(page.getByRole('heading', { level: 1, name: partyName })).toBeVisible();
  await expectNoSidewaysScroll(page, 'party');

  await page.goto(`/characters/${character.id}`);
  await expect(
    page.getByRole('heading', { level: 1, name: 'Vexanderalathiel Nightwhisperingshadow' }),
  ).toBeVisible();
  await expectNoSidewaysScroll(page, 'character');

  await page.goto(`/shops/instances/${shop.id}`);
  await expect(page.getByRole('link', { name: partyName })).toBeVisible();
  await expectNoSidewaysScroll(page, 'shop');
  await expect(page.getByTestId('user-menu-button')).toBeInViewport();
  await context.close();
});

test('a phone with its text at 150 % shows whole names: the header, a shop’s shelf, a container’s items', async ({
  browser,
}) => {
  test.setTimeout(120_000);
  const context = await browser.newContext({
    viewport: { width: 375, height: 812 },
    hasTouch: true,
    isMobile: true,
  });
  const page = await context.newPage();
  // The browser's own text size (Settings → Font size), as a reader who needs it sets it: 24 px, not 16.
  const cdp = await context.newCDPSession(page);
  await cdp.send('Page.setFontSizes', { fontSizes: { standard: 24, fixed: 20 } });
  const suffix = randomBytes(3).toString('hex');
  await signUpThroughApi(page, {
    email: `bigtext_${suffix}@example.com`,
    username: `bigtext_${suffix}`,
    password: 'Adventure1',
  });
  await upgradeTo(page, 'tier_2');
  const party = await api<{ id: string }>(page, 'POST', '/parties', { party: { name: 'Large Print Party' } });
  const character = await api<{ id: string; primary_container_id: string }>(page, 'POST', '/characters', {
    character: { name: 'Zoe', party_id: party.id, max_weight: 500 },
  });
  await addItem(page, character.primary_container_id, 'Quarterstaff', 1);
  await addItem(page, character.primary_container_id, 'Arrow', 6);
  const [store] = await api<{ id: string }[]>(page, 'GET', '/shop_templates?search=Wayfarer');
  if (!store) throw new Error('the General Store is not seeded');
  const shop = await api<{ id: string }>(page, 'POST', '/shop_instances', {
    shop_instance: { shop_template_id: store.id, party_id: party.id },
  });

  /** Each element's content fits its box: no name cut to "Great…", no count sticking out of its tile. */
  const expectWhole = async (testId: string, what: string) => {
    const boxes = page.getByTestId(testId);
    await expect(boxes.first()).toBeVisible();
    for (const box of await boxes.all()) {
      const cut = await box.evaluate((el) => {
        const parts = [el, ...Array.from(el.querySelectorAll('*'))] as HTMLElement[];
        const outer = el.getBoundingClientRect();
        return parts.some((part) => {
          const r = part.getBoundingClientRect();
          const clipped =
            part.scrollWidth > part.clientWidth + 1 && getComputedStyle(part).overflow === 'hidden';
          return clipped || (r.width > 0 && r.right > outer.right + 1);
        });
      });
      expect(cut, `${what} "${await box.textContent()}" is cut or sticks out`).toBe(false);
    }
  };

  await page.goto(`/shops/instances/${shop.id}`);
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  await expectWhole('shop-stock-item', 'the shelf line');
  await expectNoSidewaysScroll(page, 'shop-150-percent');
  // The home link stays inside the header, on one line (it was "Hav / ers / ack" over the page).
  const header = await page.locator('header').first().boundingBox();
  const home = await page.getByRole('link', { name: 'Haversack home' }).boundingBox();
  expect(home && header && home.y + home.height <= header.y + header.height).toBe(true);

  await page.goto(`/containers/${character.primary_container_id}`);
  await expect(page.getByTestId('item-tile').first()).toBeVisible();
  await expectWhole('item-tile-cell', 'the item');
  await expectNoSidewaysScroll(page, 'container-150-percent');

  // A revealed loot: each row's worth, Take and Claim stay on the screen (they pushed it to 409 px).
  const hoard = await api<{ id: string }>(page, 'POST', '/loot_templates', {
    loot_template: { name: 'Hoard of the Very Long Named Dragon' },
  });
  const sword = await findTemplate(page, 'Sword of Life Stealing');
  await api(page, 'POST', `/loot_templates/${hoard.id}/loot_items`, {
    loot_item: { item_template_id: sword.id, quantity: 1 },
  });
  await api(page, 'POST', `/loot_templates/${hoard.id}/loot_items`, {
    loot_item: { currency: 'gp', quantity: 2500 },
  });
  const loot = await api<{ id: string }>(page, 'POST', '/loot_instances', {
    loot_instance: { loot_template_id: hoard.id, party_id: party.id },
  });
  await api(page, 'PATCH', `/loot_instances/${loot.id}`, { loot_instance: { is_revealed: true } });
  await page.goto(`/loot/instances/${loot.id}`);
  await expect(page.getByRole('button', { name: /^Claim / }).first()).toBeVisible();
  await expectWhole('loot-stack', 'the loot row');
  await expectNoSidewaysScroll(page, 'loot-150-percent');
  await context.close();
});

test('a phone with its text at 200 % shows every button’s whole label, on the pages of a game night', async ({
  browser,
}) => {
  test.setTimeout(150_000);
  const context = await browser.newContext({
    viewport: { width: 375, height: 812 },
    hasTouch: true,
    isMobile: true,
  });
  const page = await context.newPage();
  const cdp = await context.newCDPSession(page);
  // Sent again after each load: a navigation can drop the override.
  const largeText = () => cdp.send('Page.setFontSizes', { fontSizes: { standard: 32, fixed: 26 } });
  await largeText();
  const suffix = randomBytes(3).toString('hex');
  await signUpThroughApi(page, {
    email: `hugetext_${suffix}@example.com`,
    username: `hugetext_${suffix}`,
    password: 'Adventure1',
  });
  await upgradeTo(page, 'tier_2');
  const party = await api<{ id: string }>(page, 'POST', '/parties', { party: { name: 'Huge Print Party' } });
  const character = await api<{ id: string; primary_container_id: string }>(page, 'POST', '/characters', {
    character: { name: 'Zed', party_id: party.id, max_weight: 500 },
  });
  await addItem(page, character.primary_container_id, 'Quarterstaff', 1);
  const [store] = await api<{ id: string }[]>(page, 'GET', '/shop_templates?search=Wayfarer');
  if (!store) throw new Error('the General Store is not seeded');
  const shop = await api<{ id: string }>(page, 'POST', '/shop_instances', {
    shop_instance: { shop_template_id: store.id, party_id: party.id },
  });

  /** No visible button label is cut: its text lies within the button that shows it, however many lines. */
  const expectWholeButtonLabels = async (name: string) => {
    await dismissToasts(page);
    const cut = await page.evaluate(() =>
      Array.from(document.querySelectorAll<HTMLElement>('.mantine-Button-label'))
        .filter((label) => label.offsetParent !== null && label.getBoundingClientRect().width > 0)
        .filter((label) => {
          const button = label.closest('.mantine-Button-root')?.getBoundingClientRect();
          const range = document.createRange();
          range.selectNodeContents(label);
          const text = range.getBoundingClientRect();
          return (
            !button ||
            label.scrollWidth > label.clientWidth + 1 ||
            text.left < button.left - 1 ||
            text.right > button.right + 1 ||
            text.top < button.top - 1 ||
            text.bottom > button.bottom + 1
          );
        })
        .map((label) => label.textContent ?? ''),
    );
    await picture(page, `long-names-${name}-200-375.png`);
    expect(cut, `${name}: cut button labels`).toEqual([]);
  };
  const visit = async (url: string, ready: () => Promise<void>, name: string) => {
    await page.goto(url);
    await largeText();
    await ready();
    await expectWholeButtonLabels(name);
  };

  await visit('/dashboard', () => expect(page.getByTestId('dashboard-heading')).toBeVisible(), 'dashboard');
  await visit(
    `/parties/${party.id}`,
    () => expect(page.getByRole('heading', { level: 1, name: 'Huge Print Party' })).toBeVisible(),
    'party',
  );
  await visit(
    `/characters/${character.id}`,
    () => expect(page.getByRole('heading', { level: 1, name: 'Zed' })).toBeVisible(),
    'character',
  );
  await visit(
    `/containers/${character.primary_container_id}`,
    () => expect(page.getByTestId('item-tile').first()).toBeVisible(),
    'container',
  );
  await visit(
    `/shops/instances/${shop.id}`,
    () => expect(page.getByTestId('shop-stock-item').first()).toBeVisible(),
    'shop',
  );
  await visit(
    '/profile',
    () => expect(page.getByRole('heading', { level: 1, name: 'Profile' })).toBeVisible(),
    'profile',
  );
  await visit(
    '/subscription',
    () => expect(page.getByRole('heading', { level: 1, name: 'Subscription' })).toBeVisible(),
    'subscription',
  );
  await visit(
    '/marketplace',
    () => expect(page.getByRole('heading', { level: 1, name: 'Marketplace' })).toBeVisible(),
    'marketplace',
  );
  await context.close();
});
