import {
  type LootDistribution,
  type LootInstance,
  lootContentsFingerprint,
  lootMessages,
} from '@haversack/contracts';
import type { QueryClient } from '@tanstack/react-query';
import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { describe, expect, it, vi } from 'vitest';
import { useUiStore } from '../../../stores/ui-store';
import { failure, jsonResponse, mockFetch, success } from '../../../test/fixtures';
import { useGlobalStyles } from '../../../test/global-styles';
import { buildCharacter, pageMeta } from '../../../test/party-fixtures';
import { renderWithProviders } from '../../inventory/test/inventory-fixtures';
import { lootKeys } from '../api/loot-api';
import { buildLootInstance } from '../test/loot-fixtures';
import { DistributeLootDialog } from './distribute-loot-dialog';

const loot = buildLootInstance({ id: 'loot-1', name: 'Dragon Hoard', is_revealed: true });
const party = [
  buildCharacter({ id: 'ch-aria', name: 'Aria', party_id: 'party-1' }),
  buildCharacter({ id: 'ch-bram', name: 'Bram', party_id: 'party-1', is_owner: false }),
  buildCharacter({ id: 'ch-cass', name: 'Cass', party_id: 'party-1', is_owner: false }),
];

const purse = (coins: Partial<Record<'cp' | 'sp' | 'ep' | 'gp' | 'pp', number>>) => ({
  cp: 0,
  sp: 0,
  ep: 0,
  gp: 0,
  pp: 0,
  ...coins,
});

function distribution(overrides: Partial<LootDistribution> = {}): LootDistribution {
  return {
    loot_instance_id: 'loot-1',
    preview: true,
    distribution_mode: 'even',
    seed: 424242,
    recipients: [
      {
        character_id: 'ch-aria',
        name: 'Aria',
        value_cp: 1550,
        items: [
          {
            item_template_id: 'tpl-sword',
            name: 'Longsword',
            quantity: 1,
            value_cp: 1500,
            coin: null,
            destination: 'character',
            container_id: 'c-aria',
            container_name: 'Backpack',
          },
          {
            item_template_id: 'coin-sp',
            name: 'Silver Piece',
            quantity: 5,
            value_cp: 50,
            coin: 'sp',
            destination: 'character',
            container_id: 'c-aria',
            container_name: 'Backpack',
          },
        ],
      },
      {
        character_id: 'ch-bram',
        name: 'Bram',
        value_cp: 1550,
        items: [
          {
            item_template_id: 'tpl-sword',
            name: 'Longsword',
            quantity: 1,
            value_cp: 1500,
            coin: null,
            destination: 'party_stash',
            container_id: 'c-stash',
            container_name: 'Party Stash',
          },
          {
            item_template_id: 'coin-sp',
            name: 'Silver Piece',
            quantity: 5,
            value_cp: 50,
            coin: 'sp',
            destination: 'character',
            container_id: 'c-bram',
            container_name: 'Sack',
          },
        ],
      },
    ],
    conversion: { taken: purse({ gp: 1 }), made: purse({ sp: 10 }) },
    overflow: true,
    total_value_cp: 3100,
    contents_fingerprint: lootContentsFingerprint(loot.container.item_instances),
    transaction_ids: [],
    ...overrides,
  };
}

interface DistributeBody {
  distribute: {
    character_ids: string[];
    distribution_mode: string;
    preview: boolean;
    seed?: number;
    contents_fingerprint?: string;
  };
}

/** The party's characters and the distribute endpoint at the network boundary. */
function mockParty(distribute: (body: DistributeBody) => Response) {
  return mockFetch(({ url, init }) => {
    const { pathname, searchParams } = new URL(url, 'http://test');
    if (pathname === '/api/v1/characters' && searchParams.get('party_id') === 'party-1') {
      return jsonResponse(200, { status: 'success', data: party, meta: pageMeta(party.length, 100) });
    }
    if (init.method === 'POST' && pathname === '/api/v1/loot_instances/loot-1/distribute') {
      return distribute(JSON.parse(String(init.body)) as DistributeBody);
    }
    return failure(404, 'RESOURCE_NOT_FOUND', `No fake for ${pathname}`);
  });
}

const distributeBodies = (fetchMock: ReturnType<typeof mockFetch>) =>
  fetchMock.mock.calls
    .filter(([url, init]) => init?.method === 'POST' && String(url).endsWith('/distribute'))
    .map(([, init]) => JSON.parse(String(init?.body)) as DistributeBody);

function renderDialog(onClose = vi.fn()) {
  const { queryClient } = renderWithProviders(<DistributeLootDialog loot={loot} opened onClose={onClose} />);
  // The loot's page has it in the cache.
  queryClient.setQueryData(lootKeys.instance(loot.id), loot);
  lastClient = queryClient;
  return onClose;
}
let lastClient: QueryClient | null = null;

describe('DistributeLootDialog', () => {
  it('keeps Preview and Confirm distribution in sight, stuck to the bottom as the other dialogs’ actions', async () => {
    // Review (touch): at 667x375 Preview sat at y=385, below the fold, reached only by scrolling to the end.
    useGlobalStyles('Modal', 'Group');
    mockParty(() => success(distribution()));
    renderDialog();
    const dialog = await screen.findByRole('dialog', { name: 'Distribute Dragon Hoard' });
    const actions = within(dialog).getByRole('button', { name: 'Preview' }).closest('.mantine-Group-root');
    if (!actions) throw new Error('Preview is in no row');
    expect(getComputedStyle(actions).position).toBe('sticky');
  });

  it('starts on its first field, the first character, once the party’s characters are in', async () => {
    mockParty(() => success(distribution()));
    renderDialog();
    const dialog = await screen.findByRole('dialog', { name: 'Distribute Dragon Hoard' });
    await waitFor(() => expect(within(dialog).getByRole('checkbox', { name: 'Aria' })).toHaveFocus());
  });

  it('previews who gets what, the stash overflow and the coin change, before anything moves', async () => {
    const user = userEvent.setup();
    const fetchMock = mockParty((body) =>
      success(distribution({ distribution_mode: body.distribute.distribution_mode as 'even' })),
    );
    renderDialog();
    const dialog = await screen.findByRole('dialog', { name: 'Distribute Dragon Hoard' });
    // Every character of the party is chosen at first; Even split is the mode.
    for (const name of ['Aria', 'Bram', 'Cass']) {
      expect(await within(dialog).findByRole('checkbox', { name })).toBeChecked();
    }
    expect(within(dialog).getByRole('radio', { name: /Even split/ })).toBeChecked();
    expect(within(dialog).queryByRole('button', { name: 'Confirm distribution' })).not.toBeInTheDocument();

    await user.click(within(dialog).getByRole('button', { name: 'Preview' }));
    const preview = await within(dialog).findByTestId('distribution-preview');
    expect(distributeBodies(fetchMock)).toEqual([
      {
        distribute: {
          character_ids: ['ch-aria', 'ch-bram', 'ch-cass'],
          distribution_mode: 'even',
          preview: true,
        },
      },
    ]);
    expect(
      within(preview).getByText('This is who would get what. Nothing has moved yet.'),
    ).toBeInTheDocument();
    expect(within(preview).getByTestId('distribution-conversion')).toHaveTextContent(
      'Coins changed first to share evenly: 1 gp into 10 sp.',
    );
    const [aria, bram] = within(preview).getAllByTestId('distribution-recipient') as HTMLElement[];
    expect(within(aria as HTMLElement).getByText('Aria')).toBeInTheDocument();
    expect(within(aria as HTMLElement).getByTestId('recipient-value')).toHaveTextContent('15 gp 5 sp');
    expect(within(aria as HTMLElement).getByText('1 × Longsword')).toBeInTheDocument();
    expect(within(aria as HTMLElement).getByText('5 × Silver Piece')).toBeInTheDocument();
    expect(within(aria as HTMLElement).queryByTestId('stash-overflow')).not.toBeInTheDocument();
    expect(within(bram as HTMLElement).getByTestId('stash-overflow')).toHaveTextContent(
      'Goes to the party stash: no room',
    );
    // Bram's 15 gp 5 sp share is only 5 sp in his sack: the figure says where the rest goes.
    expect(within(bram as HTMLElement).getByTestId('recipient-stash-value')).toHaveTextContent(
      '15 gp of it goes to the party stash.',
    );
    expect(within(aria as HTMLElement).queryByTestId('recipient-stash-value')).not.toBeInTheDocument();
  });

  it('groups the thousands of each share and of the coins changed', async () => {
    // Review (coins, 8): "308641 × Platinum piece" beside "3,086,410 gp".
    const user = userEvent.setup();
    const platinum = {
      item_template_id: 'coin-pp',
      name: 'Platinum piece',
      quantity: 308_641,
      value_cp: 308_641_000,
      coin: 'pp' as const,
      destination: 'character' as const,
      container_id: 'c-aria',
      container_name: 'Backpack',
    };
    mockParty(() =>
      success(
        distribution({
          recipients: [{ character_id: 'ch-aria', name: 'Aria', value_cp: 308_641_000, items: [platinum] }],
          conversion: { taken: purse({ pp: 1_234 }), made: purse({ gp: 12_340 }) },
          overflow: false,
          total_value_cp: 308_641_000,
        }),
      ),
    );
    renderDialog();
    const dialog = await screen.findByRole('dialog', { name: 'Distribute Dragon Hoard' });
    await within(dialog).findByRole('checkbox', { name: 'Aria' });
    await user.click(within(dialog).getByRole('button', { name: 'Preview' }));
    const preview = await within(dialog).findByTestId('distribution-preview');
    expect(within(preview).getByText('308,641 × Platinum piece')).toBeInTheDocument();
    expect(within(preview).getByTestId('distribution-conversion')).toHaveTextContent(
      'Coins changed first to share evenly: 1,234 pp into 12,340 gp.',
    );
  });

  it('confirms with preview false and the preview’s seed, then says so and closes', async () => {
    const user = userEvent.setup();
    const fetchMock = mockParty((body) =>
      success(
        distribution({
          distribution_mode: 'random',
          preview: body.distribute.preview,
          transaction_ids: body.distribute.preview ? [] : ['tx-1'],
        }),
      ),
    );
    const onClose = renderDialog();
    const dialog = await screen.findByRole('dialog');
    await user.click(await within(dialog).findByRole('checkbox', { name: 'Cass' }));
    await user.click(within(dialog).getByRole('radio', { name: /Random/ }));
    await user.click(within(dialog).getByRole('button', { name: 'Preview' }));
    await user.click(await within(dialog).findByRole('button', { name: 'Confirm distribution' }));
    await waitFor(() => expect(onClose).toHaveBeenCalled());
    expect(distributeBodies(fetchMock)).toEqual([
      { distribute: { character_ids: ['ch-aria', 'ch-bram'], distribution_mode: 'random', preview: true } },
      {
        distribute: {
          character_ids: ['ch-aria', 'ch-bram'],
          distribution_mode: 'random',
          preview: false,
          seed: 424242,
          // What the preview was made from: the server refuses it if the loot has changed since.
          contents_fingerprint: lootContentsFingerprint(loot.container.item_instances),
        },
      },
    ]);
    expect(useUiStore.getState().toasts.at(-1)).toMatchObject({
      kind: 'success',
      message: 'Loot distributed successfully',
    });
    // The page shows it shared out at once, with nothing left to take, before its refetch answers.
    const shown = lastClient?.getQueryData<LootInstance>(lootKeys.instance(loot.id));
    expect(shown?.distributed_at).not.toBeNull();
    expect(shown?.container.item_instances).toEqual([]);
  });

  it('drops the preview when the characters or the mode change', async () => {
    const user = userEvent.setup();
    mockParty(() => success(distribution()));
    renderDialog();
    const dialog = await screen.findByRole('dialog');
    await user.click(await within(dialog).findByRole('button', { name: 'Preview' }));
    expect(await within(dialog).findByTestId('distribution-preview')).toBeInTheDocument();
    await user.click(within(dialog).getByRole('radio', { name: /By value/ }));
    expect(within(dialog).queryByTestId('distribution-preview')).not.toBeInTheDocument();
    expect(within(dialog).queryByRole('button', { name: 'Confirm distribution' })).not.toBeInTheDocument();

    await user.click(within(dialog).getByRole('button', { name: 'Preview' }));
    expect(await within(dialog).findByTestId('distribution-preview')).toBeInTheDocument();
    await user.click(within(dialog).getByRole('checkbox', { name: 'Aria' }));
    expect(within(dialog).queryByTestId('distribution-preview')).not.toBeInTheDocument();
  });

  it('says the loot was already distributed when the confirmation comes too late', async () => {
    const user = userEvent.setup();
    const onClose = vi.fn();
    mockParty((body) =>
      body.distribute.preview
        ? success(distribution())
        : failure(409, 'ALREADY_DISTRIBUTED', 'Loot already distributed'),
    );
    renderDialog(onClose);
    const dialog = await screen.findByRole('dialog');
    await user.click(await within(dialog).findByRole('button', { name: 'Preview' }));
    await user.click(await within(dialog).findByRole('button', { name: 'Confirm distribution' }));
    expect(await within(dialog).findByTestId('distribute-error')).toHaveTextContent(
      'This loot has already been distributed.',
    );
    expect(useUiStore.getState().toasts.at(-1)).toMatchObject({
      kind: 'error',
      message: 'This loot has already been distributed.',
    });
    expect(onClose).not.toHaveBeenCalled();
  });

  it('says when the last distribution still runs, or the loot is busy, and keeps the dialog open', async () => {
    const user = userEvent.setup();
    const onClose = vi.fn();
    let previews = 0;
    mockParty((body) => {
      if (!body.distribute.preview) return failure(409, 'CONFLICT', lootMessages.lootBusy);
      previews += 1;
      return previews === 1
        ? failure(429, 'RATE_LIMITED', lootMessages.distributionRunning)
        : success(distribution());
    });
    renderDialog(onClose);
    const dialog = await screen.findByRole('dialog');
    await user.click(await within(dialog).findByRole('button', { name: 'Preview' }));
    await waitFor(() =>
      expect(useUiStore.getState().toasts.at(-1)).toMatchObject({
        kind: 'error',
        message: 'Your last distribution is still running. Try again when it has finished.',
      }),
    );
    await user.click(await within(dialog).findByRole('button', { name: 'Preview' }));
    await user.click(await within(dialog).findByRole('button', { name: 'Confirm distribution' }));
    expect(await within(dialog).findByTestId('distribute-error')).toHaveTextContent(
      'This loot is being distributed or changed right now. Try again in a moment.',
    );
    expect(onClose).not.toHaveBeenCalled();
  });

  it('when the loot changed since the preview, says so and shows a fresh preview instead of distributing', async () => {
    const user = userEvent.setup();
    const onClose = vi.fn();
    const stale = 'The loot changed since your preview: preview again.';
    let previews = 0;
    const fetchMock = mockParty((body) => {
      if (!body.distribute.preview) {
        return jsonResponse(409, {
          status: 'error',
          error: {
            type: 'conflict',
            code: 'CONFLICT',
            message: stale,
            status: 409,
            details: [{ field: 'distribute.contents_fingerprint', message: stale }],
          },
        });
      }
      previews += 1;
      // The first preview gave Bram the longsword; a player has claimed it since.
      return success(
        previews === 1
          ? distribution()
          : distribution({ recipients: [{ character_id: 'ch-aria', name: 'Aria', value_cp: 0, items: [] }] }),
      );
    });
    renderDialog(onClose);
    const dialog = await screen.findByRole('dialog');
    await user.click(await within(dialog).findByRole('button', { name: 'Preview' }));
    expect(await within(dialog).findAllByText('1 × Longsword')).toHaveLength(2);
    await user.click(within(dialog).getByRole('button', { name: 'Confirm distribution' }));

    expect(await within(dialog).findByTestId('distribution-changed')).toHaveTextContent(stale);
    await waitFor(() => expect(within(dialog).queryByText('1 × Longsword')).not.toBeInTheDocument());
    expect(within(dialog).getByTestId('distribution-preview')).toBeInTheDocument();
    expect(within(dialog).queryByTestId('distribute-error')).not.toBeInTheDocument();
    expect(onClose).not.toHaveBeenCalled();
    expect(distributeBodies(fetchMock).map((b) => b.distribute.preview)).toEqual([true, false, true]);
    // The fresh preview is the one a confirmation now carries.
    expect(within(dialog).getByRole('button', { name: 'Confirm distribution' })).toBeEnabled();
  });

  it('previews again, and says why, when the loot changes on the page while the preview is open', async () => {
    const user = userEvent.setup();
    const claimed = {
      ...loot,
      container: { ...loot.container, item_instances: loot.container.item_instances.slice(1) },
    };
    let previews = 0;
    const fetchMock = mockParty(() => {
      previews += 1;
      return success(
        previews === 1
          ? distribution()
          : distribution({
              recipients: [{ character_id: 'ch-aria', name: 'Aria', value_cp: 0, items: [] }],
              contents_fingerprint: lootContentsFingerprint(claimed.container.item_instances),
            }),
      );
    });
    // The page's live loot, as its query holds it.
    let showLoot: (next: typeof loot) => void = () => undefined;
    function Page() {
      const [live, setLive] = useState(loot);
      showLoot = setLive;
      return <DistributeLootDialog loot={live} opened onClose={() => undefined} />;
    }
    renderWithProviders(<Page />);
    const dialog = await screen.findByRole('dialog');
    await user.click(await within(dialog).findByRole('button', { name: 'Preview' }));
    expect(await within(dialog).findAllByText('1 × Longsword')).toHaveLength(2);
    expect(within(dialog).queryByTestId('distribution-changed')).not.toBeInTheDocument();

    // A player claims the longswords: the loot's live event refreshes the page's loot.
    act(() => showLoot(claimed));
    expect(await within(dialog).findByTestId('distribution-changed')).toHaveTextContent(
      'The loot changed since your preview: here is the updated one.',
    );
    await waitFor(() => expect(within(dialog).queryByText('1 × Longsword')).not.toBeInTheDocument());
    expect(distributeBodies(fetchMock).map((b) => b.distribute.preview)).toEqual([true, true]);
  });

  it('explains a Free plan’s refusal with the way to upgrade', async () => {
    const user = userEvent.setup();
    const refusal = 'Loot distribution is not included in your Free plan. Upgrade to use it.';
    mockParty(() =>
      jsonResponse(403, {
        status: 'error',
        error: {
          type: 'error',
          code: 'FEATURE_NOT_AVAILABLE',
          message: refusal,
          status: 403,
          details: [{ field: 'loot_distribution', message: refusal, feature: 'loot_distribution' }],
        },
      }),
    );
    renderDialog();
    const dialog = await screen.findByRole('dialog');
    await user.click(await within(dialog).findByRole('button', { name: 'Preview' }));
    const prompt = await within(dialog).findByTestId('upgrade-prompt');
    expect(prompt).toHaveTextContent(refusal);
    expect(within(prompt).getByRole('link', { name: 'See upgrade options' })).toHaveAttribute(
      'href',
      '/subscription/upgrade?feature=loot_distribution',
    );
    expect(within(dialog).queryByTestId('distribution-preview')).not.toBeInTheDocument();
  });
});
