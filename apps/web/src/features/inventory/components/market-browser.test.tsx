import { DndContext } from '@dnd-kit/core';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { pickContainerByTyping } from '../../../test/container-picker';
import { mockFetch, success } from '../../../test/fixtures';
import { useGlobalStyles } from '../../../test/global-styles';
import { restoreViewportAfterEach, setViewport } from '../../../test/viewport';
import { buildLootItemTemplate } from '../../loot/test/loot-fixtures';
import { buildContainer, buildPartyStash, renderWithProviders } from '../test/inventory-fixtures';
import { MarketBrowser } from './market-browser';

afterEach(() => vi.unstubAllGlobals());

const silver = buildLootItemTemplate({
  id: 'coin-sp',
  name: 'Silver piece',
  weight: 0.02,
  base_value: 1,
  currency: 'sp',
  value_cp: 10,
  // DESIGN §4: coins stack without limit (stack_size 0).
  stack_size: 0,
  stackable: true,
  tags: ['currency'],
  category: null,
  is_currency: true,
});
const arrows = buildLootItemTemplate({
  id: 'arrow',
  name: 'Arrow',
  weight: 0.05,
  base_value: 5,
  currency: 'cp',
  value_cp: 5,
  stack_size: 1000,
  stackable: true,
  category: null,
});
const longsword = buildLootItemTemplate();

describe('MarketBrowser', () => {
  describe('on a phone', () => {
    restoreViewportAfterEach();
    it('makes each template’s Add a finger tall (44 px)', async () => {
      // First-hour review: 56x30 px at 375x740, the one button a player taps to stock a container.
      useGlobalStyles('Button');
      setViewport(375, 740);
      mockFetch(({ url }) =>
        url.includes('/search/items')
          ? success([longsword])
          : success({ allowed: true, feature: 'party_collaboration' }),
      );
      renderWithProviders(
        <DndContext>
          <MarketBrowser
            containers={[buildContainer()]}
            defaultTargetId="container-1"
            draggable={false}
            onAdd={vi.fn()}
          />
        </DndContext>,
      );
      const add = await screen.findByRole('button', { name: `Add ${longsword.name}` });
      expect(getComputedStyle(add).minHeight).toBe('44px');
    });
  });

  it('says a template stacks without limit in words, and groups the thousands of a stack size', async () => {
    mockFetch(({ url }) =>
      url.includes('/search/items')
        ? success([silver, arrows, longsword])
        : success({ allowed: true, feature: 'party_collaboration' }),
    );
    renderWithProviders(
      <DndContext>
        <MarketBrowser
          containers={[buildContainer()]}
          defaultTargetId="container-1"
          draggable={false}
          onAdd={vi.fn()}
        />
      </DndContext>,
    );
    const [coin, arrow, sword] = await screen.findAllByTestId('market-template');
    // The review read "1 sp · stacks", with no number, on the coins.
    expect(within(coin as HTMLElement).getByText(/1 sp/)).toHaveTextContent(/· 1 sp · stacks without limit$/);
    expect(within(arrow as HTMLElement).getByText(/5 cp/)).toHaveTextContent(/· 5 cp · stacks of 1,000$/);
    // A template that does not stack says nothing about stacks.
    expect(within(sword as HTMLElement).getByText(/15 gp/)).toHaveTextContent(/· 15 gp$/);
  });

  it('keeps its destination when the chosen container is picked again, so the Add buttons stay', async () => {
    mockFetch(({ url }) =>
      url.includes('/search/items')
        ? success([longsword])
        : success({ allowed: true, feature: 'party_collaboration' }),
    );
    renderWithProviders(
      <DndContext>
        <MarketBrowser
          containers={[buildContainer()]}
          defaultTargetId="container-1"
          draggable={false}
          onAdd={vi.fn()}
        />
      </DndContext>,
    );
    const [sword] = await screen.findAllByTestId('market-template');
    const addTo = screen.getByRole('combobox', { name: 'Add to' });
    const chosen = (addTo as HTMLInputElement).value;
    expect(chosen).not.toBe('');
    await userEvent.click(addTo);
    await userEvent.click(await screen.findByRole('option', { name: chosen }));
    expect(addTo).toHaveValue(chosen);
    expect(within(sword as HTMLElement).getByRole('button', { name: /^Add/ })).toBeEnabled();
  });

  it('finds a destination by typing, grouped by owner, for the keyboard to pick', async () => {
    mockFetch(({ url }) =>
      url.includes('/search/items')
        ? success([longsword])
        : success({ allowed: true, feature: 'party_collaboration' }),
    );
    const saddlebag = buildContainer({
      id: 'saddlebag',
      name: 'Saddlebag',
      is_primary: false,
      character_id: 'character-brom',
      owner: { type: 'character', id: 'character-brom', name: 'Brom' },
    });
    renderWithProviders(
      <DndContext>
        <MarketBrowser
          containers={[buildContainer(), buildPartyStash({ id: 'party-1', name: 'Night Watch' }), saddlebag]}
          defaultTargetId="container-1"
          draggable={false}
          onAdd={vi.fn()}
        />
      </DndContext>,
    );
    await screen.findAllByTestId('market-template');
    const picker = await pickContainerByTyping(userEvent.setup(), {
      label: 'Add to',
      groups: ['Aria', 'Night Watch', 'Brom'],
      typed: 'saddle',
      matching: ['Saddlebag (Brom)'],
    });
    expect((picker as HTMLInputElement).value).toMatch(/^Saddlebag \(Brom\)/);
  });
});

describe('MarketBrowser: the results as a list', () => {
  it('reads the templates found as a named list, a line a template with its own Add, and says it is loading', async () => {
    let answer: (response: Response) => void = () => {};
    mockFetch(({ url }) =>
      url.includes('/search/items')
        ? new Promise<Response>((resolve) => {
            answer = resolve;
          })
        : success({ allowed: true, feature: 'party_collaboration' }),
    );
    renderWithProviders(
      <DndContext>
        <MarketBrowser
          containers={[buildContainer()]}
          defaultTargetId="container-1"
          draggable={false}
          onAdd={vi.fn()}
        />
      </DndContext>,
    );
    // While the search is on its way a screen reader hears so, politely (dnd-kit keeps a status of its own).
    expect(await screen.findByText('Loading the marketplace')).toHaveAttribute('role', 'status');
    answer(success([silver, arrows, longsword]));
    const results = await screen.findByRole('list', { name: 'Marketplace items' });
    const lines = within(results).getAllByRole('listitem');
    expect(lines).toHaveLength(3);
    expect(
      within(lines[2] as HTMLElement).getByRole('button', { name: 'Add Longsword' }),
    ).toBeInTheDocument();
    expect(screen.queryByText('Loading the marketplace')).not.toBeInTheDocument();
  });

  it('says politely, not as an alert, that a search found nothing', async () => {
    mockFetch(({ url }) =>
      url.includes('/search/items')
        ? success([])
        : success({ allowed: true, feature: 'party_collaboration' }),
    );
    renderWithProviders(
      <DndContext>
        <MarketBrowser
          containers={[buildContainer()]}
          defaultTargetId="container-1"
          draggable={false}
          onAdd={vi.fn()}
        />
      </DndContext>,
    );
    expect(await screen.findByText('No items found.')).toHaveAttribute('role', 'status');
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
  });
});

describe('MarketBrowser on a slow or dropped connection', () => {
  it('keeps the results of a search whose refresh failed, with a note; a new search that fails says so', async () => {
    let connected = true;
    mockFetch(({ url }) => {
      if (!url.includes('/search/items')) return success({ allowed: true, feature: 'party_collaboration' });
      if (!connected) throw new TypeError('Failed to fetch');
      return success([longsword]);
    });
    const user = userEvent.setup();
    const { queryClient } = renderWithProviders(
      <DndContext>
        <MarketBrowser
          containers={[buildContainer()]}
          defaultTargetId="container-1"
          draggable={false}
          onAdd={vi.fn()}
        />
      </DndContext>,
    );
    expect(await screen.findAllByTestId('market-template')).toHaveLength(1);
    connected = false;
    await queryClient.refetchQueries({ queryKey: ['item-templates', 'search'] });
    await waitFor(() => expect(screen.getByTestId('refresh-failed-note')).toBeVisible(), { timeout: 5_000 });
    expect(screen.getAllByTestId('market-template')).toHaveLength(1);
    expect(screen.queryByText('Error loading the marketplace')).not.toBeInTheDocument();

    // Another search has nothing of its own to show: the results of the last one would answer the wrong question.
    await user.type(screen.getByRole('textbox', { name: 'Search the marketplace' }), 'bow');
    expect(
      await screen.findByText('Error loading the marketplace', undefined, { timeout: 5_000 }),
    ).toBeInTheDocument();
    expect(screen.queryByTestId('market-template')).not.toBeInTheDocument();
  }, 20_000);
});
