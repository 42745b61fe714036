import { type APIRequestContext, expect, type Page, test } from '@playwright/test';
import { newAccount } from '../support/accounts';

interface Session {
  token: string;
  refresh_token: string;
  expires_at: string;
  user: { username: string };
}

/** Signs an account up through the API: this spec is about the patronage panel, not the sign-up form. */
async function signUp(request: APIRequestContext, prefix: string): Promise<Session> {
  const account = newAccount(prefix);
  const response = await request.post('/api/v1/auth/register', {
    data: { user: { ...account, password_confirmation: account.password } },
  });
  expect(response.ok(), await response.text()).toBeTruthy();
  return ((await response.json()) as { data: Session }).data;
}

async function call<T>(request: APIRequestContext, session: Session, path: string, body: unknown) {
  const response = await request.post(`/api/v1${path}`, {
    headers: { Authorization: `Bearer ${session.token}` },
    data: body,
  });
  expect(response.ok(), `${path}: ${await response.text()}`).toBeTruthy();
  return ((await response.json()) as { data: T }).data;
}

/**
 * Every element that held the keyboard focus, in order, sampled each frame from the page's start: a focus
 * that fell to the page for a moment (a busy button is disabled, and the browser drops its focus) shows.
 */
function recordFocus(page: Page) {
  return page.addInitScript(() => {
    const trail: { body: boolean; row: string | null; name: string }[] = [];
    (window as unknown as { focusTrail: typeof trail }).focusTrail = trail;
    const sample = () => {
      const active = document.activeElement;
      const body = !active || active === document.body;
      const row = active?.closest('[data-testid^="patronage-member-"]')?.getAttribute('data-testid') ?? null;
      const name = body ? 'body' : (active?.getAttribute('aria-label') ?? active?.textContent ?? '');
      const last = trail.at(-1);
      if (!last || last.name !== name || last.row !== row) trail.push({ body, row, name });
      requestAnimationFrame(sample);
    };
    requestAnimationFrame(sample);
  });
}

/** Where the focus went since the last call. */
async function focusTrailSince(page: Page, from: number) {
  const trail = await page.evaluate(
    () =>
      (window as unknown as { focusTrail: { body: boolean; row: string | null; name: string }[] }).focusTrail,
  );
  return trail.slice(from);
}

test('a patron sponsors a member and ends it by keyboard, and the focus never leaves that member’s row for the page', async ({
  page,
  request,
}) => {
  const patron = await signUp(request, 'patron');
  const member = await signUp(request, 'bard');
  // Hero has patronage; the member stays on Free, so Adventurer and Hero may both be granted.
  await call(request, patron, '/subscription/checkout', { tier_id: 'tier_2' });
  const party = await call<{ id: string; join_code: string }>(request, patron, '/parties', {
    party: { name: 'The Lantern Bearers' },
  });
  await call(request, member, '/parties/join', { join_code: party.join_code, role_request: 'player' });

  await page.addInitScript((session) => {
    window.localStorage.setItem('auth_token', session.token);
    window.localStorage.setItem('refresh_token', session.refresh_token);
    window.localStorage.setItem('token_expires_at', session.expires_at);
  }, patron);
  await recordFocus(page);
  await page.goto(`/parties/${party.id}`);
  const rowId = `patronage-member-${member.user.username}`;
  const row = page.getByTestId('patronage-panel').getByTestId(rowId);

  // Sponsor: the row's button, then the dialog's (Cancel has the focus as it opens).
  await row.getByRole('button', { name: `Sponsor ${member.user.username}` }).focus();
  await page.keyboard.press('Enter');
  const dialog = page.getByRole('dialog', { name: 'Start sponsorship' });
  await expect(dialog.getByRole('button', { name: 'Cancel' })).toBeFocused();
  // The plan: Hero, the patron's own, is offered first; Adventurer is chosen with the arrow keys.
  await expect(dialog.getByRole('radio', { name: 'Hero' })).toBeChecked();
  await expect(dialog).toContainText(`${member.user.username} gets Hero in The Lantern Bearers`);
  await page.keyboard.press('Shift+Tab');
  await expect(dialog.getByRole('radio', { name: 'Hero' })).toBeFocused();
  await page.keyboard.press('ArrowLeft');
  await expect(dialog.getByRole('radio', { name: 'Adventurer' })).toBeChecked();
  await expect(dialog).toContainText(`${member.user.username} gets Adventurer in The Lantern Bearers`);
  await page.keyboard.press('Tab');
  await expect(dialog.getByRole('button', { name: 'Cancel' })).toBeFocused();
  await page.keyboard.press('Tab');
  await expect(dialog.getByRole('button', { name: 'Sponsor', exact: true })).toBeFocused();
  let seen = (await focusTrailSince(page, 0)).length;
  await page.keyboard.press('Enter');
  await expect(dialog).toBeHidden();
  const end = row.getByRole('button', { name: `End sponsorship of ${member.user.username}` });
  await expect(end).toBeFocused();
  expect((await focusTrailSince(page, seen)).filter((step) => step.body)).toEqual([]);
  await expect(row).toContainText('Adventurer (sponsored)');

  // End it: the same again, onto the button that replaced it.
  await page.keyboard.press('Enter');
  const ending = page.getByRole('dialog', { name: 'End sponsorship' });
  await expect(ending.getByRole('button', { name: 'Cancel' })).toBeFocused();
  await page.keyboard.press('Tab');
  await expect(ending.getByRole('button', { name: 'End sponsorship', exact: true })).toBeFocused();
  seen = (await focusTrailSince(page, 0)).length;
  await page.keyboard.press('Enter');
  await expect(ending).toBeHidden();
  await expect(row.getByRole('button', { name: `Sponsor ${member.user.username}` })).toBeFocused();
  expect((await focusTrailSince(page, seen)).filter((step) => step.body)).toEqual([]);
  const last = (await focusTrailSince(page, 0)).at(-1);
  expect(last?.row).toBe(rowId);
});
