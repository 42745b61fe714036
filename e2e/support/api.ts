import { expect, type Page } from '@playwright/test';

/** Call the API as the page's signed-in user (the token the app keeps in localStorage). */
export async function api<T>(
  page: Page,
  method: 'GET' | 'POST' | 'PATCH' | 'DELETE',
  path: string,
  body?: unknown,
): Promise<T> {
  const token = await page.evaluate(() => window.localStorage.getItem('auth_token'));
  const response = await page.request.fetch(`/api/v1${path}`, {
    method,
    headers: { Authorization: `Bearer ${token}` },
    data: body,
  });
  expect(response.ok(), `${method} ${path}: ${response.status()} ${await response.text()}`).toBeTruthy();
  return ((await response.json()) as { data: T }).data;
}

/** A public catalogue template by its exact name (the SRD items and the coins are seeded at start). */
export async function findTemplate(page: Page, name: string): Promise<{ id: string; name: string }> {
  const found = await api<{ id: string; name: string }[]>(
    page,
    'GET',
    `/search/items?search=${encodeURIComponent(name)}&per_page=20`,
  );
  const template = found.find((t) => t.name === name);
  if (!template) throw new Error(`the catalogue has no ${name}`);
  return template;
}

/** Puts `quantity` of a catalogue item into a container through the API; answers the stacks made. */
export async function addItem<T = unknown>(
  page: Page,
  containerId: string,
  name: string,
  quantity: number,
): Promise<T> {
  const template = await findTemplate(page, name);
  return api<T>(page, 'POST', '/item_instances', {
    item_template_id: template.id,
    container_id: containerId,
    quantity,
  });
}

/**
 * Puts the page's user on a paid plan through the demo checkout (the e2e server runs with
 * BILLING_PROVIDER=local): acting on a party's stash needs party_collaboration, which Free lacks.
 */
export async function upgradeTo(page: Page, tier: 'tier_1' | 'tier_2' | 'tier_3'): Promise<void> {
  await api(page, 'POST', '/subscription/checkout', { tier_id: tier });
}
