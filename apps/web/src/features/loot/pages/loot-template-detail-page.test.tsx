import { lootMessages } from '@haversack/contracts';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { useUiStore } from '../../../stores/ui-store';
import { failure, jsonResponse, mockFetch, success } from '../../../test/fixtures';
import { buildParty, pageMeta } from '../../../test/party-fixtures';
import { renderRoutes } from '../../../test/render';
import { buildCoinLootItem, buildLootItem, buildLootTemplate } from '../test/loot-fixtures';
import { LootTemplateDetailPage, lootTemplateDeleted } from './loot-template-detail-page';

const routes = [
  { path: '/loot/templates/:id', element: <LootTemplateDetailPage /> },
  { path: '/loot/templates', element: <p>The list of loot templates</p> },
];

const items = [buildLootItem({ quantity: 2 }), buildCoinLootItem('gp', 250)];

function serve(template = buildLootTemplate({ loot_items: items, total_value_cp: 28_000 })) {
  return mockFetch(({ url, init }) => {
    if (url.endsWith('/duplicate')) {
      return success({ ...template, id: 'copy-1', name: `${template.name} (Copy)`, is_owner: true }, 201);
    }
    if (init.method === 'DELETE') return new Response(null, { status: 204 });
    if (url.includes('/loot_templates/copy-1')) {
      return success({ ...template, id: 'copy-1', name: `${template.name} (Copy)`, is_owner: true });
    }
    if (url.includes(`/loot_templates/${template.id}`)) return success(template);
    return failure(404, 'NOT_FOUND', 'Not found');
  });
}

describe('LootTemplateDetailPage', () => {
  it('shows the items, coins as a purse would, and the total; the owner may edit, fill and delete', async () => {
    serve();
    renderRoutes(routes, '/loot/templates/loot-template-1');
    expect(await screen.findByRole('heading', { level: 1, name: 'Goblin Boss Hoard' })).toBeInTheDocument();
    const rows = within(screen.getByTestId('loot-items')).getAllByTestId('loot-item');
    expect(rows[0]).toHaveTextContent('Longsword');
    expect(rows[0]).toHaveTextContent('30 gp');
    expect(rows[1]).toHaveTextContent('250 gp');
    expect(screen.getByTestId('loot-total-value')).toHaveTextContent('280 gp');
    expect(screen.getByRole('link', { name: 'Edit' })).toHaveAttribute(
      'href',
      '/loot/templates/loot-template-1/edit',
    );
    expect(screen.getByRole('link', { name: 'Manage Items' })).toHaveAttribute(
      'href',
      '/loot/templates/loot-template-1/inventory',
    );
    expect(screen.getByRole('button', { name: 'Delete' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Duplicate' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Deploy to Party' })).toBeInTheDocument();
    expect(screen.queryByTestId('read-only-notice')).not.toBeInTheDocument();
  });

  it('offers someone else’s public template to duplicate and deploy only, and opens the copy', async () => {
    const fetchMock = serve(
      buildLootTemplate({ visibility: 'public', is_owner: false, creator_name: 'dm_sam', loot_items: items }),
    );
    const user = userEvent.setup();
    const { router } = renderRoutes(routes, '/loot/templates/loot-template-1');
    await screen.findByRole('heading', { level: 1, name: 'Goblin Boss Hoard' });
    expect(screen.getByText('By dm_sam')).toBeInTheDocument();
    expect(screen.queryByRole('link', { name: 'Edit' })).not.toBeInTheDocument();
    expect(screen.queryByRole('link', { name: 'Manage Items' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Delete' })).not.toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Duplicate' }));
    await vi.waitFor(() => expect(router.state.location.pathname).toBe('/loot/templates/copy-1'));
    expect(
      fetchMock.mock.calls.some(
        ([url, init]) =>
          String(url).endsWith('/loot_templates/loot-template-1/duplicate') && init?.method === 'POST',
      ),
    ).toBe(true);
    expect(useUiStore.getState().toasts.at(-1)).toMatchObject({
      kind: 'success',
      message: lootMessages.duplicated,
    });
    expect(
      await screen.findByRole('heading', { level: 1, name: 'Goblin Boss Hoard (Copy)' }),
    ).toBeInTheDocument();
  });

  it('shows a catalogue template read-only, with Duplicate', async () => {
    serve(
      buildLootTemplate({
        is_system: true,
        is_owner: false,
        visibility: 'public',
        creator_id: null,
        creator_name: null,
        loot_items: items,
      }),
    );
    renderRoutes(routes, '/loot/templates/loot-template-1');
    expect(await screen.findByTestId('read-only-notice')).toHaveTextContent(lootMessages.systemTemplate);
    expect(screen.getByTestId('catalogue-badge')).toBeInTheDocument();
    expect(screen.getByText('From the catalogue')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Duplicate' })).toBeInTheDocument();
    expect(screen.queryByRole('link', { name: 'Edit' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Delete' })).not.toBeInTheDocument();
  });

  it('deletes after confirmation and goes back to the list', async () => {
    const fetchMock = serve();
    const user = userEvent.setup();
    const { router } = renderRoutes(routes, '/loot/templates/loot-template-1');
    await user.click(await screen.findByRole('button', { name: 'Delete' }));
    const dialog = await screen.findByRole('dialog', { name: 'Delete loot template' });
    expect(fetchMock.mock.calls.some(([, init]) => init?.method === 'DELETE')).toBe(false);
    await user.click(within(dialog).getByRole('button', { name: 'Delete' }));
    expect(await screen.findByText('The list of loot templates')).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/loot/templates');
    const del = fetchMock.mock.calls.find(([, init]) => init?.method === 'DELETE');
    expect(String(del?.[0])).toMatch(/\/loot_templates\/loot-template-1$/);
    expect(useUiStore.getState().toasts.at(-1)).toMatchObject({ message: lootTemplateDeleted });
  });

  it('says the template is not found on a 404', async () => {
    mockFetch(() => failure(404, 'NOT_FOUND', lootMessages.templateNotFound));
    renderRoutes(routes, '/loot/templates/missing');
    expect(await screen.findByRole('heading', { name: 'Loot Template Not Found' })).toBeInTheDocument();
  });

  it('disables Deploy to Party, saying why, when I am the GM of no active party', async () => {
    const template = buildLootTemplate({ loot_items: items });
    const parties = (list: ReturnType<typeof buildParty>[]) =>
      mockFetch(({ url }) => {
        if (new URL(url, 'http://test').pathname.endsWith('/parties')) {
          return jsonResponse(200, { status: 'success', data: list, meta: pageMeta(list.length, 100) });
        }
        if (url.includes(`/loot_templates/${template.id}`)) return success(template);
        return failure(404, 'NOT_FOUND', 'Not found');
      });
    parties([buildParty({ user_role: 'player', is_gm: false })]);
    const { unmount } = renderRoutes(routes, '/loot/templates/loot-template-1');
    const deploy = await screen.findByRole('button', { name: 'Deploy to Party' });
    await vi.waitFor(() => expect(deploy).toBeDisabled());
    expect(deploy).toHaveAccessibleDescription(
      'You are not the GM of any active party. Only the GM of a party can deploy loot into it.',
    );
    unmount();

    parties([buildParty({ user_role: 'gm', is_gm: true })]);
    renderRoutes(routes, '/loot/templates/loot-template-1');
    const mine = await screen.findByRole('button', { name: 'Deploy to Party' });
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(mine).toBeEnabled();
    expect(screen.queryByTestId('no-deploy-party')).not.toBeInTheDocument();
  });
});
