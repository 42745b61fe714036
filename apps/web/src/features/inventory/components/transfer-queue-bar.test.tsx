import { lootMessages } from '@haversack/contracts';
import { Button } from '@mantine/core';
import { Notifications, notifications } from '@mantine/notifications';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { useUiStore } from '../../../stores/ui-store';
import { failure, jsonResponse, mockFetch } from '../../../test/fixtures';
import { useGlobalStyles } from '../../../test/global-styles';
import { restoreViewportAfterEach, setViewport } from '../../../test/viewport';
import { selectDestinationMessage, useTransferQueue } from '../hooks/use-transfer-queue';
import { buildContainer, buildItem, renderWithProviders } from '../test/inventory-fixtures';
import type { QueuedItem } from '../workspace-types';
import { sourceOptionLabel } from './container-source-select';
import { bottomCoverProperty, TransferQueueBar } from './transfer-queue-bar';

afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

const backpack = buildContainer();
const quiver = buildContainer({ id: 'container-2', name: 'Quiver', is_primary: false });
const arrows = buildItem();
const sword = buildItem({ id: 'item-2', name: 'Longsword', quantity: 1 });

function Harness({ items, withToasts = false }: { items: QueuedItem[]; withToasts?: boolean }) {
  const queue = useTransferQueue();
  return (
    <>
      <Button onClick={() => items.forEach(queue.add)}>Queue all</Button>
      <Button onClick={() => items[0] && void queue.quickTransfer(items[0])}>Quick transfer first</Button>
      <TransferQueueBar queue={queue} containers={[backpack, quiver]} />
      {withToasts ? <Notifications /> : null}
    </>
  );
}

function transferResult() {
  return jsonResponse(200, {
    status: 'success',
    data: {
      success: true,
      message: 'Item transferred successfully',
      moved: 1,
      source_instance: null,
      target_instances: [],
      transaction_ids: [],
    },
  });
}

describe('TransferQueueBar', () => {
  it('covers no item while empty: it sticks to the bottom only with items queued or a refusal to show', async () => {
    mockFetch(() => transferResult());
    renderWithProviders(<Harness items={[arrows]} />);
    const bar = screen.getByRole('region', { name: 'Transfer queue' });
    expect(bar).not.toHaveStyle({ position: 'sticky' });
    fireEvent.click(screen.getByRole('button', { name: 'Queue all' }));
    await waitFor(() => expect(bar).toHaveStyle({ position: 'sticky', bottom: '0px' }));
    fireEvent.click(screen.getByRole('button', { name: 'Clear' }));
    await waitFor(() => expect(bar).not.toHaveStyle({ position: 'sticky' }));
    // A swipe right without a destination: the bar comes up to say why.
    fireEvent.click(screen.getByRole('button', { name: 'Quick transfer first' }));
    expect(await screen.findByText(selectDestinationMessage)).toBeInTheDocument();
    expect(bar).toHaveStyle({ position: 'sticky' });
  });

  it('refuses to process without a destination', async () => {
    const fetchMock = mockFetch(() => transferResult());
    renderWithProviders(<Harness items={[arrows]} />);
    fireEvent.click(screen.getByRole('button', { name: 'Queue all' }));
    fireEvent.click(screen.getByRole('button', { name: 'Process Queue' }));
    expect(await screen.findByText(selectDestinationMessage)).toBeInTheDocument();
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it('moves each queued item in turn, one request after the other, then empties the queue', async () => {
    const pending: { body: string; resolve: () => void }[] = [];
    mockFetch(({ init }) => {
      if (init.method !== 'POST') return jsonResponse(200, { status: 'success', data: [] });
      return new Promise<Response>((resolve) => {
        pending.push({ body: String(init.body), resolve: () => resolve(transferResult()) });
      });
    });
    renderWithProviders(<Harness items={[arrows, sword]} />);
    fireEvent.click(screen.getByRole('button', { name: 'Queue all' }));
    expect(screen.getByText('Arrow ×20')).toBeInTheDocument();
    expect(screen.getByText('Longsword ×1')).toBeInTheDocument();

    fireEvent.click(screen.getByRole('combobox', { name: 'Destination' }));
    fireEvent.click(await screen.findByRole('option', { name: /^Quiver/ }));
    fireEvent.click(screen.getByRole('button', { name: 'Process Queue' }));

    await waitFor(() => expect(pending).toHaveLength(1));
    expect(JSON.parse(pending[0]?.body ?? '{}')).toMatchObject({
      item_instance_id: 'item-1',
      source_container_id: 'container-1',
      target_container_id: 'container-2',
      quantity: 20,
    });
    expect(screen.getByText('Transferring 1 of 2')).toBeInTheDocument();
    // The second transfer waits for the first to finish.
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(pending).toHaveLength(1);

    pending[0]?.resolve();
    await waitFor(() => expect(pending).toHaveLength(2));
    expect(JSON.parse(pending[1]?.body ?? '{}')).toMatchObject({ item_instance_id: 'item-2', quantity: 1 });
    pending[1]?.resolve();
    await waitFor(() => expect(screen.queryByText('Longsword ×1')).not.toBeInTheDocument());
    expect(screen.queryByText('Arrow ×20')).not.toBeInTheDocument();
  });

  it('keeps an empty queue compact: only the destination, no Clear or Process Queue', () => {
    mockFetch(() => transferResult());
    renderWithProviders(<Harness items={[sword]} />);
    expect(screen.getByRole('combobox', { name: 'Destination' })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Process Queue' })).not.toBeInTheDocument();
    fireEvent.click(screen.getByRole('button', { name: 'Queue all' }));
    expect(screen.getByRole('button', { name: 'Process Queue' })).toBeEnabled();
    fireEvent.click(screen.getByRole('button', { name: 'Clear' }));
    expect(screen.queryByRole('button', { name: 'Clear' })).not.toBeInTheDocument();
  });

  it('says what the destination is for before any swipe, not only in the refusal after one', () => {
    mockFetch(() => transferResult());
    renderWithProviders(<Harness items={[sword]} />);
    expect(screen.getByRole('combobox', { name: 'Destination' })).toHaveAttribute(
      'placeholder',
      'Choose where swiped items go',
    );
    expect(screen.getByText('Swipe right: Quick Transfer · left: Add to Queue')).toBeInTheDocument();
  });

  it('keeps every queued item whole and clear of the buttons: Clear beside the title, items wrapping before Process', () => {
    mockFetch(() => transferResult());
    const many = Array.from({ length: 8 }, (_, index) =>
      buildItem({ id: `item-${index}`, name: `Torch ${index + 1}`, quantity: 1 }),
    );
    renderWithProviders(<Harness items={many} />);
    fireEvent.click(screen.getByRole('button', { name: 'Queue all' }));
    const header = screen.getByTestId('transfer-queue-header');
    expect(within(header).getByText('Transfer queue')).toBeInTheDocument();
    expect(within(header).getByRole('button', { name: 'Clear' })).toBeInTheDocument();
    // Whoever queued an item has swiped already: the help gives its line to the buttons.
    expect(screen.queryByText('Swipe right: Quick Transfer · left: Add to Queue')).not.toBeInTheDocument();
    const row = screen.getByTestId('transfer-queue-items');
    const queued = within(row).getByRole('list', { name: 'Queued items' });
    // Process Queue comes after the items, not beside a strip of them: it goes under them when they need the room.
    expect(queued.contains(within(row).getByRole('button', { name: 'Process Queue' }))).toBe(false);
    expect(row.style.getPropertyValue('--group-wrap')).toBe('wrap');
    expect(within(queued).getAllByRole('listitem')).toHaveLength(8);
    // No item slides under a button (review 2026-12: the second was cut to "SA…" behind Process Queue):
    // they wrap (Mantine's Group takes its flex-wrap from this variable), and past two lines the list
    // scrolls up and down, each item's remove button reachable by Tab.
    expect(queued.style.getPropertyValue('--group-wrap')).toBe('wrap');
    expect(queued).not.toHaveStyle({ overflowX: 'auto' });
    expect(queued).toHaveStyle({ overflowY: 'auto' });
    for (const item of many) {
      expect(
        within(queued).getByRole('button', { name: `Remove ${item.name} from queue` }),
      ).not.toHaveAttribute('tabindex', '-1');
    }
  });

  it("cuts a long destination with an ellipsis and gives its whole name as the field's title", async () => {
    mockFetch(() => transferResult());
    const pouch = buildContainer({
      id: 'container-3',
      name: 'Belt pouch',
      is_primary: false,
      owner: { type: 'character', id: 'character-1', name: 'Lyra Moonwhisper, Seeker of the Lost Archive' },
    });
    function Chosen() {
      const queue = useTransferQueue();
      return (
        <>
          <Button onClick={() => queue.choose(pouch.id)}>Choose pouch</Button>
          <TransferQueueBar queue={queue} containers={[backpack, pouch]} />
        </>
      );
    }
    renderWithProviders(<Chosen />);
    fireEvent.click(screen.getByRole('button', { name: 'Choose pouch' }));
    const destination = screen.getByRole('combobox', { name: 'Destination' });
    await waitFor(() => expect(destination).toHaveValue(sourceOptionLabel(pouch)));
    expect(destination).toHaveAttribute('title', sourceOptionLabel(pouch));
    expect(destination).toHaveStyle({ textOverflow: 'ellipsis' });
  });

  it('tells how much of the screen it covers while it floats, and nothing once it sits after the list', async () => {
    mockFetch(() => transferResult());
    vi.spyOn(HTMLElement.prototype, 'getBoundingClientRect').mockImplementation(function (this: HTMLElement) {
      return DOMRect.fromRect({ width: 343, height: this.dataset.testid === 'transfer-queue' ? 123.4 : 0 });
    });
    const onCoverChange = vi.fn();
    function Covering() {
      const queue = useTransferQueue();
      return (
        <>
          <Button onClick={() => queue.add(sword)}>Queue one</Button>
          <TransferQueueBar queue={queue} containers={[backpack, quiver]} onCoverChange={onCoverChange} />
        </>
      );
    }
    renderWithProviders(<Covering />);
    expect(onCoverChange).toHaveBeenLastCalledWith(0);
    fireEvent.click(screen.getByRole('button', { name: 'Queue one' }));
    await waitFor(() => expect(onCoverChange).toHaveBeenLastCalledWith(124));
    // The page scrolls a focused tile above the bar, not under it.
    expect(document.documentElement.style.scrollPaddingBottom).toBe('124px');
    // A desktop's toasts open at the bottom right: they rise above the bar rather than over Process Queue.
    expect(document.documentElement.style.getPropertyValue(bottomCoverProperty)).toBe('124px');
    fireEvent.click(screen.getByRole('button', { name: 'Clear' }));
    await waitFor(() => expect(onCoverChange).toHaveBeenLastCalledWith(0));
    expect(document.documentElement.style.scrollPaddingBottom).toBe('');
    expect(document.documentElement.style.getPropertyValue(bottomCoverProperty)).toBe('');
  });

  it('removes one item and clears the rest', () => {
    mockFetch(() => transferResult());
    renderWithProviders(<Harness items={[arrows, sword]} />);
    fireEvent.click(screen.getByRole('button', { name: 'Queue all' }));
    fireEvent.click(screen.getByRole('button', { name: 'Remove Arrow from queue' }));
    expect(screen.queryByText('Arrow ×20')).not.toBeInTheDocument();
    fireEvent.click(screen.getByRole('button', { name: 'Clear' }));
    expect(screen.queryByText('Longsword ×1')).not.toBeInTheDocument();
  });

  it('offers Undo after a quick transfer, which asks the server to undo that move', async () => {
    const posts: { url: string; body: Record<string, unknown> | null }[] = [];
    mockFetch(({ url, init }) => {
      if (init.method !== 'POST') return jsonResponse(200, { status: 'success', data: [] });
      posts.push({
        url,
        body: init.body ? (JSON.parse(String(init.body)) as Record<string, unknown>) : null,
      });
      if (url.endsWith('/undo')) {
        return jsonResponse(200, {
          status: 'success',
          data: { success: true, message: 'Transfer undone', moved: 20 },
        });
      }
      // 20 arrows arrive in the quiver, merged into a stack that already held 5.
      return jsonResponse(200, {
        status: 'success',
        data: {
          success: true,
          message: 'Item transferred successfully',
          moved: 20,
          source_instance: null,
          target_instances: [buildItem({ id: 'quiver-arrows', quantity: 25, container_id: 'container-2' })],
          transaction_ids: ['entry-1'],
        },
      });
    });
    // Toasts of the tests before are still in Mantine's queue (nothing drew them): start clean.
    notifications.clean();
    renderWithProviders(<Harness items={[arrows]} withToasts />);
    fireEvent.click(screen.getByRole('combobox', { name: 'Destination' }));
    fireEvent.click(await screen.findByRole('option', { name: /^Quiver/ }));
    fireEvent.click(screen.getByRole('button', { name: 'Quick transfer first' }));
    await waitFor(() => expect(posts).toHaveLength(1));
    fireEvent.click(await screen.findByRole('button', { name: 'Undo' }, { timeout: 5_000 }));
    await waitFor(() => expect(posts).toHaveLength(2));
    expect(posts[1]).toEqual({ url: '/api/v1/transactions/entry-1/undo', body: null });
    await waitFor(() =>
      expect(useUiStore.getState().toasts.map((t) => t.message)).toContain('Transfer undone'),
    );
  });

  describe('loot stacks (issue 11)', { timeout: 20_000 }, () => {
    const goblinLoot = { lootId: 'loot-1', lootName: 'Goblin Boss Hoard', partyId: 'party-1', blocked: null };
    const lootSword: QueuedItem = {
      ...buildItem({ id: 'loot-stack-1', name: 'Longsword', quantity: 2, container_id: 'loot-container-1' }),
      loot: goblinLoot,
    };
    const takeResult = () =>
      jsonResponse(200, {
        status: 'success',
        data: {
          kind: 'take',
          message: lootMessages.taken,
          loot_instance_id: 'loot-1',
          quantity: 2,
          item_instances: [],
          transaction_ids: [],
        },
      });
    const posts = (fetchMock: ReturnType<typeof mockFetch>) =>
      fetchMock.mock.calls
        .filter(([, init]) => init?.method === 'POST')
        .map(([url, init]) => ({ url: String(url), body: JSON.parse(String(init?.body)) }));

    async function chooseQuiver() {
      fireEvent.click(screen.getByRole('combobox', { name: 'Destination' }));
      fireEvent.click(await screen.findByRole('option', { name: /^Quiver/ }));
    }

    it('takes a queued loot stack, the whole of it, and moves my items as before', async () => {
      const fetchMock = mockFetch(({ url, init }) => {
        if (init.method !== 'POST') return jsonResponse(200, { status: 'success', data: [] });
        return url.includes('/loot_instances/') ? takeResult() : transferResult();
      });
      renderWithProviders(<Harness items={[lootSword, sword]} />);
      fireEvent.click(screen.getByRole('button', { name: 'Queue all' }));
      await chooseQuiver();
      fireEvent.click(screen.getByRole('button', { name: 'Process Queue' }));

      await waitFor(() => expect(screen.queryByText('Longsword ×2')).not.toBeInTheDocument());
      expect(posts(fetchMock)).toEqual([
        {
          url: '/api/v1/loot_instances/loot-1/take',
          body: { item_instance_id: 'loot-stack-1', target_container_id: 'container-2', quantity: 2 },
        },
        {
          url: '/api/v1/containers/transfer',
          body: expect.objectContaining({ item_instance_id: 'item-2', target_container_id: 'container-2' }),
        },
      ]);
      const toasts = useUiStore.getState().toasts.map((t) => t.message);
      expect(toasts).toContain(lootMessages.taken);
      expect(toasts).toContain('Item transferred successfully');
    });

    it('takes a loot stack on a swipe right (Quick Transfer), and shows the server’s refusal', async () => {
      const fetchMock = mockFetch(({ init }) =>
        init.method === 'POST'
          ? failure(409, 'CONFLICT', lootMessages.alreadyTaken)
          : jsonResponse(200, { status: 'success', data: [] }),
      );
      renderWithProviders(<Harness items={[lootSword]} />);
      await chooseQuiver();
      fireEvent.click(screen.getByRole('button', { name: 'Quick transfer first' }));
      await waitFor(() =>
        expect(useUiStore.getState().toasts.at(-1)).toMatchObject({
          kind: 'error',
          message: lootMessages.alreadyTaken,
        }),
      );
      expect(posts(fetchMock)).toEqual([
        {
          url: '/api/v1/loot_instances/loot-1/take',
          body: { item_instance_id: 'loot-stack-1', target_container_id: 'container-2', quantity: 2 },
        },
      ]);
    });

    it('does not queue loot nobody may take from', () => {
      const fetchMock = mockFetch(() => transferResult());
      const hidden = { ...lootSword, loot: { ...goblinLoot, blocked: lootMessages.notRevealed } };
      renderWithProviders(<Harness items={[hidden]} />);
      fireEvent.click(screen.getByRole('button', { name: 'Queue all' }));
      expect(screen.queryByText('Longsword ×2')).not.toBeInTheDocument();
      expect(useUiStore.getState().toasts.at(-1)).toMatchObject({
        kind: 'error',
        message: lootMessages.notRevealed,
      });
      expect(fetchMock).not.toHaveBeenCalled();
    });
  });
});

describe('TransferQueueBar on a short screen', () => {
  restoreViewportAfterEach();
  const renderQueued = () => {
    mockFetch(() => transferResult());
    renderWithProviders(<Harness items={[arrows, sword]} />);
    fireEvent.click(screen.getByRole('button', { name: 'Queue all' }));
    const bar = screen.getByRole('region', { name: 'Transfer queue' });
    return {
      body: bar.firstElementChild as HTMLElement,
      queued: within(bar).getByRole('list', { name: 'Queued items' }),
    };
  };

  it('floats on two lines in a landscape phone: title, Clear and Destination, then the items and Process', () => {
    // Review (touch): 167 px of a 375 px screen, the list left three rows under the header.
    useGlobalStyles('Input', 'Group', 'Stack');
    setViewport(667, 375);
    const { body, queued } = renderQueued();
    expect(getComputedStyle(body).flexDirection).toBe('row');
    expect(getComputedStyle(body).flexWrap).toBe('wrap');
    expect(getComputedStyle(queued).maxHeight).toBe('36px');
  });

  it('keeps its lines in a portrait phone, with two lines of items', () => {
    useGlobalStyles('Input', 'Group', 'Stack');
    setViewport(375, 812);
    const { body, queued } = renderQueued();
    expect(getComputedStyle(body).flexDirection).not.toBe('row');
    expect(getComputedStyle(queued).maxHeight).toBe('68px');
  });
});
