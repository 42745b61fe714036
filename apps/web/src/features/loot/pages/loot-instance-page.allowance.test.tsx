import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { failure, jsonResponse, mockFetch, success } from '../../../test/fixtures';
import { buildCharacter, pageMeta } from '../../../test/party-fixtures';
import { renderRoutes } from '../../../test/render';
import { buildContainer } from '../../inventory/test/inventory-fixtures';
import { buildLootInstance } from '../test/loot-fixtures';
import { LootInstancePage } from './loot-instance-page';

const base = buildLootInstance();
const loot = buildLootInstance({
  is_revealed: true,
  revealed_at: '2026-01-02T00:00:00.000Z',
  can_manage: false,
  can_take: true,
  container: base.container,
});
const swordName = base.container.item_instances[0]?.name ?? '';
const aria = buildCharacter({
  id: 'ch-aria',
  name: 'Aria',
  party_id: 'party-1',
  primary_container_id: 'c-pack',
});
const backpack = buildContainer({
  id: 'c-pack',
  name: 'Backpack',
  owner: { type: 'character', id: 'ch-aria', name: 'Aria' },
  character_id: 'ch-aria',
  party_id: 'party-1',
});

const partyActions = 'inventory_actions_party_monthly';

/** The loot, Aria and her backpack; the party's allowance as `party` says; every take is recorded. */
function server(party: 'spent' | 'open', shown = loot) {
  const takes: string[] = [];
  const asked: unknown[] = [];
  mockFetch(({ url, init }) => {
    const { pathname, searchParams } = new URL(url, 'http://test');
    const method = init.method ?? 'GET';
    if (pathname === '/api/v1/subscription/check_limit') {
      const body = JSON.parse(String(init.body)) as { resource: string; party_id?: string };
      asked.push(body);
      const spent = body.resource === partyActions && party === 'spent';
      return success({
        allowed: !spent,
        resource: body.resource,
        limit: 200,
        used: spent ? 200 : 3,
        remaining: spent ? 0 : 197,
      });
    }
    if (method === 'POST') {
      takes.push(pathname);
      return failure(403, 'LIMIT_EXCEEDED', 'Plan limit reached');
    }
    if (pathname === '/api/v1/loot_instances/loot-1') return success(shown);
    if (pathname === '/api/v1/characters' && searchParams.get('party_id') === 'party-1')
      return jsonResponse(200, { status: 'success', data: [aria], meta: pageMeta(1, 100) });
    if (pathname === '/api/v1/characters/ch-aria/containers') return success([backpack]);
    return failure(404, 'RESOURCE_NOT_FOUND', `No fake for ${method} ${pathname}`);
  });
  return { takes, asked };
}

function renderPage() {
  return renderRoutes(
    [{ path: '/loot/instances/:id', element: <LootInstancePage /> }],
    '/loot/instances/loot-1',
  );
}

const reason = 'No party inventory actions left this month';

describe('LootInstancePage at the month’s inventory-action limit', { timeout: 20_000 }, () => {
  it('offers Take and Claim disabled but focusable, says why with the upgrade link, and sends nothing', async () => {
    // A take or a claim spends the party's allowance wherever it goes (loot.service).
    const { takes, asked } = server('spent');
    const user = userEvent.setup();
    renderPage();
    const take = await screen.findByRole('button', { name: `Take ${swordName}` });
    await waitFor(() => expect(take).toHaveAttribute('aria-disabled', 'true'));
    expect(asked).toContainEqual({ resource: partyActions, party_id: 'party-1' });
    const claim = screen.getByRole('button', { name: `Claim ${swordName}` });
    expect(claim).toHaveAttribute('aria-disabled', 'true');
    for (const button of [take, claim]) {
      expect(button).not.toBeDisabled();
      expect(button).toHaveAccessibleDescription(expect.stringContaining(`${reason}.`));
    }
    const note = screen.getByTestId('take-allowance-refusal');
    expect(within(note).getByRole('link', { name: 'See upgrade options' })).toHaveAttribute(
      'href',
      `/subscription/upgrade?resource=${partyActions}`,
    );
    await user.click(take);
    await user.click(claim);
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(takes).toEqual([]);
  });

  it('offers the GM Distribute disabled but focusable, with why, and opens nothing', async () => {
    // One distribution is one action of the party (loot.service distribute).
    server('spent', { ...loot, can_manage: true });
    const user = userEvent.setup();
    renderPage();
    const distribute = await screen.findByRole('button', { name: 'Distribute' });
    await waitFor(() => expect(distribute).toHaveAttribute('aria-disabled', 'true'));
    expect(distribute).not.toBeDisabled();
    expect(distribute).toHaveAccessibleDescription(`${reason}.`);
    expect(
      within(screen.getByTestId('distribute-allowance-refusal')).getByRole('link', {
        name: 'See upgrade options',
      }),
    ).toHaveAttribute('href', `/subscription/upgrade?resource=${partyActions}`);
    await user.click(distribute);
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
  });

  it('keeps Take open while some of the party’s allowance is left', async () => {
    const { asked } = server('open');
    const user = userEvent.setup();
    renderPage();
    const take = await screen.findByRole('button', { name: `Take ${swordName}` });
    await waitFor(() => expect(asked).toContainEqual({ resource: partyActions, party_id: 'party-1' }));
    await waitFor(() => expect(take).toBeEnabled());
    await user.click(take);
    expect(await screen.findByRole('dialog')).toBeInTheDocument();
    expect(take).not.toHaveAttribute('aria-disabled');
    expect(screen.queryByTestId('take-allowance-refusal')).not.toBeInTheDocument();
  });
});
