import { expect, type Page } from '@playwright/test';

/** spec/02 §2: the workspace's title. */
export const WORKSPACE_TITLE = 'Inventory Management';

/**
 * The inventory workspace is open on `owner`'s inventory: the page's heading is "Inventory Management",
 * and the owner, shown below it, is the heading's accessible description.
 */
export async function expectInventoryOf(page: Page, owner: string) {
  const heading = page.getByRole('heading', { level: 1, name: WORKSPACE_TITLE });
  await expect(heading).toBeVisible();
  await expect(heading).toHaveAccessibleDescription(owner);
}
