import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { failure, jsonResponse, mockFetch, success } from '../../../test/fixtures';
import { buildParty, pageMeta } from '../../../test/party-fixtures';
import { renderRoutes } from '../../../test/render';
import { stubPhoneWidth } from '../../../test/viewport';
import { buildCurrentAtUsage } from '../../subscription/plan-limit-test-server';
import { buildLootTemplate } from '../test/loot-fixtures';
import { LootTemplatesPage } from './loot-templates-page';

const routes = [{ path: '/loot/templates', element: <LootTemplatesPage /> }];

const listPage = (templates: unknown[], total = templates.length) =>
  jsonResponse(200, { status: 'success', data: templates, meta: pageMeta(total, 12) });

const listCalls = (fetchMock: ReturnType<typeof mockFetch>) =>
  fetchMock.mock.calls.filter(([url]) => String(url).includes('/loot_templates?'));

const lastListQuery = (fetchMock: ReturnType<typeof mockFetch>) =>
  Object.fromEntries(new URL(String(listCalls(fetchMock).at(-1)?.[0]), 'http://test').searchParams);

// Mantine's inputs are slow under happy-dom on a busy machine.
describe('LootTemplatesPage', { timeout: 30_000 }, () => {
  afterEach(() => vi.unstubAllGlobals());

  it('on a phone keeps the search and the sort above the templates and folds the other filters away', async () => {
    stubPhoneWidth();
    const fetchMock = mockFetch(() => listPage([buildLootTemplate({ name: 'Dragon Hoard' })]));
    const user = userEvent.setup();
    renderRoutes(routes, '/loot/templates');
    expect(await screen.findByRole('heading', { name: 'Dragon Hoard' })).toBeInTheDocument();
    // At 375 px the seven filters stood a whole screen above the first template.
    const filters = screen.getByRole('region', { name: 'Loot template filters' });
    expect(within(filters).getByRole('textbox', { name: 'Search loot templates' })).toBeVisible();
    expect(within(filters).getByRole('combobox', { name: 'Sort by' })).toBeVisible();
    for (const name of ['Source type', 'Visibility', 'Order']) {
      expect(within(filters).getByRole('combobox', { name, hidden: true })).not.toBeVisible();
    }
    expect(within(filters).getByRole('switch', { name: 'Only mine', hidden: true })).not.toBeVisible();
    const more = within(filters).getByRole('button', { name: 'More filters' });
    expect(more).toHaveAttribute('aria-expanded', 'false');

    await user.click(more);
    expect(within(filters).getByRole('button', { name: 'Fewer filters' })).toHaveAttribute(
      'aria-expanded',
      'true',
    );
    await user.click(within(filters).getByRole('combobox', { name: 'Source type' }));
    await user.click(await screen.findByRole('option', { name: 'Monster' }));
    await vi.waitFor(() => expect(lastListQuery(fetchMock).source_type).toBe('monster'));
    // Folded again, the filter still on is counted, not hidden without a word.
    await user.click(within(filters).getByRole('button', { name: 'Fewer filters (1 on)' }));
    expect(within(filters).getByRole('button', { name: 'More filters (1 on)' })).toBeInTheDocument();
  });

  it('never cuts the worth off a card: the contents line wraps instead', async () => {
    mockFetch(() =>
      listPage([buildLootTemplate({ name: 'Dragon’s Hoard', item_units: 6, coin_units: 15_600 })]),
    );
    renderRoutes(routes, '/loot/templates');
    const contents = await screen.findByTestId('loot-template-contents');
    // In a third of 1280 px, "6 items and 15,600 coins · 19,800 gp" lost its worth to an ellipsis.
    expect(contents.closest('[data-truncate]')).toBeNull();
    expect(contents.parentElement).toHaveStyle({ overflowWrap: 'anywhere' });
  });

  it('shows every filter on a wider screen, with nothing to unfold', async () => {
    mockFetch(() => listPage([buildLootTemplate({ name: 'Dragon Hoard' })]));
    renderRoutes(routes, '/loot/templates');
    expect(await screen.findByRole('heading', { name: 'Dragon Hoard' })).toBeInTheDocument();
    const filters = screen.getByRole('region', { name: 'Loot template filters' });
    for (const name of ['Source type', 'Visibility', 'Sort by', 'Order']) {
      expect(within(filters).getByRole('combobox', { name })).toBeVisible();
    }
    expect(within(filters).queryByRole('button', { name: /^(More|Fewer) filters/ })).toBeNull();
  });

  it('shows skeleton cards while the templates load', async () => {
    mockFetch(() => new Promise<Response>(() => undefined));
    renderRoutes(routes, '/loot/templates');
    expect(await screen.findByTestId('loot-template-skeletons')).toBeInTheDocument();
    expect(screen.getAllByTestId('loot-template-skeleton')).toHaveLength(6);
  });

  it('says it could not load the templates, and Try Again asks again', async () => {
    let calls = 0;
    const fetchMock = mockFetch(({ url }) => {
      // The page also asks for my parties and my plan; only the list's own asks are counted.
      if (!url.includes('/loot_templates?')) return failure(404, 'RESOURCE_NOT_FOUND', 'not in this test');
      calls += 1;
      return calls <= 2
        ? failure(500, 'INTERNAL_SERVER_ERROR', 'boom')
        : listPage([buildLootTemplate({ name: 'Dragon Hoard' })]);
    });
    const user = userEvent.setup();
    renderRoutes(routes, '/loot/templates');
    const panel = await screen.findByRole('alert', {}, { timeout: 10_000 });
    expect(within(panel).getByText('Unable to Load Loot Templates')).toBeInTheDocument();
    await user.click(within(panel).getByRole('button', { name: 'Try Again' }));
    expect(await screen.findByRole('heading', { name: 'Dragon Hoard' })).toBeInTheDocument();
    expect(listCalls(fetchMock).length).toBeGreaterThanOrEqual(2);
  });

  it('says nothing matches, with Clear Filters and New Loot Template', async () => {
    mockFetch(() => listPage([]));
    renderRoutes(routes, '/loot/templates');
    const empty = await screen.findByTestId('empty-state');
    expect(within(empty).getByText('No Loot Templates Found')).toBeInTheDocument();
    expect(within(empty).getByRole('button', { name: 'Clear Filters' })).toBeInTheDocument();
    expect(within(empty).getByRole('link', { name: 'New Loot Template' })).toHaveAttribute(
      'href',
      '/loot/templates/new',
    );
  });

  it('asks name ascending by default, then by source type, visibility and only mine', async () => {
    const fetchMock = mockFetch(() => listPage([]));
    const user = userEvent.setup();
    renderRoutes(routes, '/loot/templates');
    await screen.findByTestId('empty-state');
    expect(lastListQuery(fetchMock)).toMatchObject({
      sort_by: 'name',
      sort_order: 'asc',
      page: '1',
      per_page: '12',
    });
    expect(lastListQuery(fetchMock).mine).toBeUndefined();

    await user.click(screen.getByRole('combobox', { name: 'Source type' }));
    await user.click(await screen.findByRole('option', { name: 'Monster' }));
    await vi.waitFor(() => expect(lastListQuery(fetchMock).source_type).toBe('monster'));

    await user.click(screen.getByRole('combobox', { name: 'Visibility' }));
    await user.click(await screen.findByRole('option', { name: 'Public' }));
    await user.click(screen.getByRole('switch', { name: 'Only mine' }));
    await vi.waitFor(() =>
      expect(lastListQuery(fetchMock)).toMatchObject({
        source_type: 'monster',
        visibility: 'public',
        mine: 'true',
      }),
    );

    await user.click(
      within(screen.getByTestId('empty-state')).getByRole('button', { name: 'Clear Filters' }),
    );
    await vi.waitFor(() => expect(screen.getByRole('combobox', { name: 'Source type' })).toHaveValue(''));
    expect(screen.getByRole('switch', { name: 'Only mine' })).not.toBeChecked();
  });

  it('sorts by total value, descending', async () => {
    const fetchMock = mockFetch(() => listPage([]));
    const user = userEvent.setup();
    renderRoutes(routes, '/loot/templates');
    await screen.findByTestId('empty-state');
    await user.click(screen.getByRole('combobox', { name: 'Sort by' }));
    await user.click(await screen.findByRole('option', { name: 'Total value' }));
    await user.click(screen.getByRole('combobox', { name: 'Order' }));
    await user.click(await screen.findByRole('option', { name: 'Descending' }));
    await vi.waitFor(() =>
      expect(lastListQuery(fetchMock)).toMatchObject({ sort_by: 'value', sort_order: 'desc' }),
    );
  });

  it('sends a tag and the search text', async () => {
    const fetchMock = mockFetch(() => listPage([]));
    const user = userEvent.setup();
    renderRoutes(routes, '/loot/templates');
    await screen.findByTestId('empty-state');
    await user.type(screen.getByLabelText('Tags', { selector: 'input' }), 'goblin{Enter}');
    await vi.waitFor(() => expect(lastListQuery(fetchMock).tag).toBe('goblin'));
    await user.click(screen.getByRole('textbox', { name: 'Search loot templates' }));
    await user.paste('dragon');
    await vi.waitFor(() =>
      expect(lastListQuery(fetchMock)).toMatchObject({ search: 'dragon', tag: 'goblin', page: '1' }),
    );
  });

  it('shows each card’s kind, source, item count, worth, tags and badges, and pages', async () => {
    const fetchMock = mockFetch(() =>
      listPage(
        [
          buildLootTemplate({
            id: 'mine',
            name: 'Goblin Boss Hoard',
            source: 'Goblin boss',
            // Four lines, two of them coins: two items and 22 coins by the unit, all of them in the worth.
            items_count: 4,
            item_units: 2,
            coin_units: 22,
            total_value_cp: 308,
            tag_list: ['goblin', 'cave', 'early', 'tier-1'],
            visibility: 'unlisted',
          }),
          buildLootTemplate({
            id: 'catalogue',
            name: 'Dragon Hoard',
            source_type: 'hoard',
            source_type_name: 'Treasure Hoard',
            source: '',
            items_count: 1,
            item_units: 0,
            coin_units: 5,
            total_value_cp: 50,
            tag_list: [],
            visibility: 'public',
            is_system: true,
            is_owner: false,
            creator_id: null,
            creator_name: null,
          }),
        ],
        30,
      ),
    );
    const user = userEvent.setup();
    renderRoutes(routes, '/loot/templates');
    const cards = await screen.findAllByTestId('loot-template-card');
    const [mine, catalogue] = cards as [HTMLElement, HTMLElement];
    expect(within(mine).getByRole('heading', { name: 'Goblin Boss Hoard' })).toBeInTheDocument();
    expect(within(mine).getByText('Monster')).toBeInTheDocument();
    expect(within(mine).getByText('Goblin boss')).toBeInTheDocument();
    // As the card of a loot deployed from it says it (lootContentsLabel).
    expect(within(mine).getByTestId('loot-template-contents')).toHaveTextContent(
      /^2 items and 22 coins · 3 gp 8 cp$/,
    );
    expect(within(mine).getByTestId('visibility-badge')).toHaveTextContent('Unlisted');
    expect(within(mine).queryByTestId('catalogue-badge')).not.toBeInTheDocument();
    expect(within(within(mine).getByTestId('loot-tags')).getByText('+1 more')).toBeInTheDocument();
    expect(within(mine).getByRole('link', { name: 'View Goblin Boss Hoard' })).toHaveAttribute(
      'href',
      '/loot/templates/mine',
    );

    expect(within(catalogue).getByText('Treasure Hoard')).toBeInTheDocument();
    expect(within(catalogue).getByTestId('catalogue-badge')).toHaveTextContent('Catalogue');
    expect(within(catalogue).queryByTestId('visibility-badge')).not.toBeInTheDocument();
    // Coins alone: their worth, never "0 items".
    expect(within(catalogue).getByTestId('loot-template-contents')).toHaveTextContent(/^5 coins · 5 sp$/);

    await user.click(screen.getByRole('button', { name: 'Page 2' }));
    await vi.waitFor(() => expect(lastListQuery(fetchMock).page).toBe('2'));
  });

  it('from a party’s Loot tab, names the party and deploys into it', async () => {
    const party = buildParty({ id: 'party-9', name: 'The Copper Lanterns', user_role: 'gm', is_gm: true });
    const fetchMock = mockFetch(({ url }) => {
      if (url.includes('/parties?')) {
        return jsonResponse(200, { status: 'success', data: [party], meta: pageMeta(1, 100) });
      }
      if (url.includes('/loot_instances')) return failure(500, 'INTERNAL_SERVER_ERROR', 'not in this test');
      return listPage([buildLootTemplate({ id: 't-1', name: 'Goblin Boss Hoard' })]);
    });
    const user = userEvent.setup();
    renderRoutes(routes, '/loot/templates?party_id=party-9');
    expect(await screen.findByTestId('deploy-target-hint')).toHaveTextContent(
      'Choose a template to deploy to The Copper Lanterns',
    );
    expect(screen.getByRole('link', { name: 'View Goblin Boss Hoard' })).toHaveAttribute(
      'href',
      '/loot/templates/t-1?party_id=party-9',
    );
    await user.click(screen.getByRole('button', { name: 'Deploy Goblin Boss Hoard' }));
    const dialog = await screen.findByRole('dialog', { name: 'Deploy Goblin Boss Hoard' });
    await vi.waitFor(() =>
      expect(within(dialog).getByRole('combobox', { name: 'Party' })).toHaveValue('The Copper Lanterns'),
    );
    expect(listCalls(fetchMock).length).toBeGreaterThan(0);
  });

  describe('what a user who cannot deploy or create is offered', () => {
    const server = (options: { parties: ReturnType<typeof buildParty>[]; lootTemplatesLimit: number }) =>
      mockFetch(({ url }) => {
        const path = new URL(url, 'http://test').pathname;
        if (path.endsWith('/parties')) {
          return jsonResponse(200, {
            status: 'success',
            data: options.parties,
            meta: pageMeta(options.parties.length, 100),
          });
        }
        if (path.endsWith('/subscription/current')) {
          return success(buildCurrentAtUsage('loot_templates', 0, options.lootTemplatesLimit));
        }
        return listPage([buildLootTemplate({ id: 't-1', name: 'Goblin Boss Hoard' })]);
      });

    it('disables Deploy, saying why, when I am the GM of no active party (a manager is not)', async () => {
      server({ parties: [buildParty({ user_role: 'manager', is_gm: false })], lootTemplatesLimit: 7 });
      renderRoutes(routes, '/loot/templates');
      const card = await screen.findByTestId('loot-template-card');
      const deploy = within(card).getByRole('button', { name: 'Deploy Goblin Boss Hoard' });
      await vi.waitFor(() => expect(deploy).toBeDisabled());
      expect(deploy).toHaveAccessibleDescription(
        'You are not the GM of any active party. Only the GM of a party can deploy loot into it.',
      );
      expect(screen.getByText('You are not the GM of any active party.')).toBeVisible();
    });

    it('keeps Deploy for the GM of a party', async () => {
      server({ parties: [buildParty({ user_role: 'gm', is_gm: true })], lootTemplatesLimit: 7 });
      renderRoutes(routes, '/loot/templates');
      const card = await screen.findByTestId('loot-template-card');
      await screen.findByRole('link', { name: 'New Loot Template' });
      await new Promise((resolve) => setTimeout(resolve, 50));
      expect(within(card).getByRole('button', { name: 'Deploy Goblin Boss Hoard' })).toBeEnabled();
      expect(screen.queryByTestId('no-deploy-party')).not.toBeInTheDocument();
    });

    it('leads to the upgrade, not to the form, when my plan has no loot templates', async () => {
      server({ parties: [], lootTemplatesLimit: 0 });
      renderRoutes(routes, '/loot/templates');
      const hint = await screen.findByTestId('plan-limit-hint');
      expect(hint).toHaveTextContent('Your plan does not include loot templates.');
      expect(within(hint).getByRole('link', { name: 'See upgrade options' })).toHaveAttribute(
        'href',
        '/subscription/upgrade?resource=loot_templates',
      );
      expect(screen.queryByRole('link', { name: 'New Loot Template' })).not.toBeInTheDocument();
    });
  });
});
