import { readFile } from 'node:fs/promises';
import { type Browser, expect, type Page, test } from '@playwright/test';
import { expectAccessible } from '../support/a11y';
import { type NewAccount, newAccount, signUpThroughApi } from '../support/accounts';
import { api, upgradeTo } from '../support/api';
import { screenshotBothWidths } from '../support/screenshots';

/** A person on their own device: a browser context of their own, signed up. */
async function person(browser: Browser, prefix: string): Promise<{ page: Page; account: NewAccount }> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  const page = await context.newPage();
  const account = newAccount(prefix);
  await signUpThroughApi(page, account);
  return { page, account };
}

/** A minimal CSV reader for the export: quoted fields, doubled quotes, CRLF or LF. */
function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = '';
  let quoted = false;
  for (let i = 0; i < text.length; i += 1) {
    const char = text[i];
    if (quoted) {
      if (char === '"' && text[i + 1] === '"') {
        field += '"';
        i += 1;
      } else if (char === '"') quoted = false;
      else field += char;
    } else if (char === '"') quoted = true;
    else if (char === ',') {
      row.push(field);
      field = '';
    } else if (char === '\n' || char === '\r') {
      if (char === '\r' && text[i + 1] === '\n') i += 1;
      row.push(field);
      rows.push(row);
      row = [];
      field = '';
    } else field += char;
  }
  if (field || row.length > 0) rows.push([...row, field]);
  return rows;
}

test('a GM watches a player change the party stash live, then exports the activity as CSV', async ({
  browser,
}) => {
  test.setTimeout(120_000);
  const gm = await person(browser, 'gm');
  const player = await person(browser, 'bard');

  // The GM's party and its stash; the player joins and brings a character. Both act on the stash,
  // which needs a plan with party collaboration.
  await upgradeTo(gm.page, 'tier_1');
  await upgradeTo(player.page, 'tier_1');
  const party = await api<{ id: string; join_code: string }>(gm.page, 'POST', '/parties', {
    party: { name: 'The Lantern Watch' },
  });
  const stash = await api<{ id: string }>(gm.page, 'POST', `/parties/${party.id}/containers`, {
    container: { name: 'Party Stash' },
  });
  await api(player.page, 'POST', '/parties/join', { join_code: party.join_code, role_request: 'player' });
  await api(player.page, 'POST', '/characters', {
    character: { name: 'Lyra Songweaver', party_id: party.id },
  });

  // Both open the party; the GM watches the Activity tab, the player the Inventory tab.
  await gm.page.goto(`/parties/${party.id}`);
  await gm.page.getByRole('tab', { name: 'Activity' }).click();
  await expect(gm.page.getByRole('heading', { name: 'Party activity' })).toBeVisible();
  await expect(gm.page.getByText('Real-time updates active')).toBeVisible();

  // The GM is told (for 2 s) when the player opens the party.
  const joinedNotice = expect(gm.page.getByText(`${player.account.username} joined the party`)).toBeVisible();
  await player.page.goto(`/parties/${party.id}`);
  await player.page.getByRole('tab', { name: 'Inventory' }).click();
  await expect(player.page.getByText('Real-time updates active')).toBeVisible();
  await joinedNotice;
  // Presence: each sees the other online.
  await expect(gm.page.getByRole('listitem', { name: player.account.username })).toBeVisible();
  await expect(player.page.getByRole('listitem', { name: gm.account.username })).toBeVisible();

  // The player adds rope to the stash through the API: neither page is told except by the socket.
  const [rope] = await api<{ id: string; name: string }[]>(
    player.page,
    'GET',
    '/search/items?search=rope&per_page=1',
  );
  if (!rope) throw new Error('the catalogue has no rope');
  await api(player.page, 'POST', '/item_instances', {
    item_template_id: rope.id,
    container_id: stash.id,
    quantity: 1,
  });

  // The GM's page shows the new row and the notice, without a reload.
  const summary = `${player.account.username} added 1 × ${rope.name} to Party Stash`;
  await expect(gm.page.getByTestId('history-row').filter({ hasText: summary })).toBeVisible();
  await expect(gm.page.getByText(`${player.account.username} updated inventory`)).toBeVisible();
  await expect(gm.page.getByText('Real-time updates active')).toBeVisible();
  // The player's own inventory workspace shows the rope, and the player is not told about their own change.
  await expect(player.page.getByRole('button', { name: `${rope.name}, quantity 1` }).first()).toBeVisible();
  await expect(player.page.getByText(`${player.account.username} updated inventory`)).toHaveCount(0);

  // The player's phone loses the network while the GM adds more rope: it says so at once, and once back
  // online it reconnects by itself and shows the rope without a reload.
  await player.page.context().setOffline(true);
  await expect(player.page.getByText('Offline: live updates paused')).toBeVisible();
  await api(gm.page, 'POST', '/item_instances', {
    item_template_id: rope.id,
    container_id: stash.id,
    quantity: 1,
  });
  await player.page.context().setOffline(false);
  await expect(player.page.getByText('Real-time updates active')).toBeVisible({ timeout: 5_000 });
  // A rope of climbing does not stack: the stash shows a second one, each tile saying which of the two it is.
  for (const place of ['1 of 2', '2 of 2']) {
    await expect(
      player.page.getByRole('button', { name: `${rope.name} (${place}), quantity 1`, exact: true }),
    ).toBeVisible();
  }

  // The GM downloads the CSV.
  const downloadStarted = gm.page.waitForEvent('download');
  await gm.page.getByRole('button', { name: 'Export CSV' }).click();
  const download = await downloadStarted;
  expect(download.suggestedFilename()).toMatch(
    new RegExp(`^transactions-${party.id}-\\d{4}-\\d{2}-\\d{2}\\.csv$`),
  );
  const path = await download.path();
  const rows = parseCsv((await readFile(path, 'utf8')).replace(/^\uFEFF/, ''));
  expect(rows[0]?.join(',')).toBe(
    'Date,Type,Actor,Target,Item,Quantity,Amount,Currency,From Location,To Location,Notes,Source,Type code',
  );
  // One row per rope added, by whom: the player's, then the GM's while the player was offline.
  expect(rows.filter((row) => row[4] === rope.name).map((row) => row[2])).toEqual([
    gm.account.username,
    player.account.username,
  ]);
  const ropeRow = rows.find((row) => row[4] === rope.name && row[2] === player.account.username);
  expect(ropeRow?.[5]).toBe('1');
  // Named with whose it is, as every container in the ledger is.
  expect(ropeRow?.[9]).toBe('Party Stash (The Lantern Watch)');

  // The Activity tab at rest: accessible, and looked at on a phone and a desktop, in both themes.
  await expect(gm.page.getByText(`${player.account.username} updated inventory`)).toBeHidden();
  for (let round = 0; round < 2; round += 1) {
    const toggle = gm.page.getByTestId('theme-toggle');
    const theme = (await toggle.getAttribute('aria-label'))?.includes('to dark') ? 'light' : 'dark';
    await gm.page.mouse.move(0, 0);
    await expectAccessible(gm.page, `party activity tab (${theme})`);
    await screenshotBothWidths(gm.page, `realtime-activity-${theme}`);
    await toggle.click();
  }
});

test('the party notes: a player saves, the GM sees them live with the editor, and a stale save is refused', async ({
  browser,
}) => {
  test.setTimeout(120_000);
  const gm = await person(browser, 'gmnotes');
  const player = await person(browser, 'scribe');
  const party = await api<{ id: string; join_code: string }>(gm.page, 'POST', '/parties', {
    party: { name: 'Notes Party', join_permission: 'limited' },
  });
  await api(player.page, 'POST', '/parties/join', { join_code: party.join_code, role_request: 'player' });

  // Both open the Overview tab, where the notes card is.
  for (const { page } of [gm, player]) {
    await page.goto(`/parties/${party.id}`);
    await expect(page.getByText('Real-time updates active')).toBeVisible();
  }
  const notesOf = (page: Page) => page.getByRole('region', { name: 'Party notes' });
  const fieldOf = (page: Page) => notesOf(page).getByRole('textbox', { name: 'Notes for the whole party' });
  await expect(notesOf(gm.page).getByText('Not edited yet')).toBeVisible();

  // The player writes and saves; the GM's card shows the text and who wrote it, without a reload.
  await fieldOf(player.page).fill('The innkeeper owes us 30 gp.');
  await notesOf(player.page).getByRole('button', { name: 'Save notes' }).click();
  await expect(player.page.getByText('Notes saved')).toBeVisible();
  await expect(fieldOf(gm.page)).toHaveValue('The innkeeper owes us 30 gp.');
  await expect(notesOf(gm.page).getByTestId('party-notes-editor')).toContainText(
    `Last edited by ${player.account.username}`,
  );

  // The GM starts editing; the player saves again meanwhile: the GM is told and keeps their text.
  await fieldOf(gm.page).fill('The innkeeper owes us 30 gp. He lies.');
  await fieldOf(player.page).fill('Paid in full.');
  await notesOf(player.page).getByRole('button', { name: 'Save notes' }).click();
  const warning = notesOf(gm.page).getByRole('alert');
  await expect(warning).toContainText(`${player.account.username} saved new notes while you were editing.`);
  await expect(fieldOf(gm.page)).toHaveValue('The innkeeper owes us 30 gp. He lies.');
  await expect(notesOf(gm.page).getByRole('button', { name: 'Save notes' })).toBeDisabled();

  // The card at rest, on a phone and a desktop, in both themes.
  for (let round = 0; round < 2; round += 1) {
    const toggle = gm.page.getByTestId('theme-toggle');
    const theme = (await toggle.getAttribute('aria-label'))?.includes('to dark') ? 'light' : 'dark';
    await gm.page.mouse.move(0, 0);
    await expectAccessible(gm.page, `party notes (${theme})`);
    await screenshotBothWidths(gm.page, `party-notes-${theme}`);
    await toggle.click();
  }

  // Keeping their own: the GM saves over the player’s notes knowingly.
  await warning.getByRole('button', { name: 'Keep mine' }).click();
  await notesOf(gm.page).getByRole('button', { name: 'Save notes' }).click();
  await expect(fieldOf(player.page)).toHaveValue('The innkeeper owes us 30 gp. He lies.');
});
