import { inventoryMessages } from '@haversack/contracts';
import { fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { toast } from '../../../lib/toast';
import { failure, jsonResponse, mockFetch, success } from '../../../test/fixtures';
import { buildItem, renderWithProviders } from '../test/inventory-fixtures';
import { ItemDetailBody } from './item-detail-body';

afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

const arrows = buildItem({ id: 'item-1', quantity: 12 });
const otherArrows = buildItem({ id: 'item-2', quantity: 8 });
const elvenArrows = buildItem({ id: 'item-3', quantity: 5, instance_data: { name_override: 'Elven arrow' } });
const sword = buildItem({ id: 'item-4', name: 'Longsword', item_template_id: 'template-2', quantity: 1 });

function stacksResponse(stacks = [arrows, otherArrows, elvenArrows, sword]) {
  return jsonResponse(200, {
    status: 'success',
    data: stacks,
    meta: { current_page: 1, total_pages: 1, total_count: stacks.length, per_page: 500 },
  });
}

function renderBody(item = arrows) {
  return renderWithProviders(
    <ItemDetailBody item={item} canAct destinations={[]} onClose={() => undefined} />,
  );
}

describe('Merge with another stack', () => {
  it('offers only other plain stacks of the same template and posts the chosen target', async () => {
    const fetchMock = mockFetch(({ init }) =>
      init.method === 'POST' ? success(buildItem({ id: 'item-2', quantity: 20 })) : stacksResponse(),
    );
    const toastSuccess = vi.spyOn(toast, 'success');
    renderBody();
    fireEvent.click(await screen.findByRole('button', { name: 'Merge with another stack' }));
    const [listUrl] = fetchMock.mock.calls[0] ?? [];
    expect(String(listUrl)).toBe('/api/v1/containers/container-1/items?page=1&per_page=500&search=Arrow');

    fireEvent.click(screen.getByRole('combobox', { name: 'Stack to merge with' }));
    const options = (await screen.findAllByRole('option')).map((o) => o.textContent);
    expect(options).toEqual(['Arrow ×8']);

    fireEvent.click(screen.getByRole('button', { name: 'Merge Stacks' }));
    await waitFor(() => expect(fetchMock.mock.calls.some(([, i]) => i?.method === 'POST')).toBe(true));
    const [url, init] = fetchMock.mock.calls.find(([, i]) => i?.method === 'POST') ?? [];
    expect(String(url)).toBe('/api/v1/item_instances/item-1/merge');
    expect(init?.method).toBe('POST');
    expect(JSON.parse(String(init?.body))).toEqual({ target_instance_id: 'item-2' });
    await waitFor(() => expect(toastSuccess).toHaveBeenCalledWith('Stacks merged: Arrow ×20'));
  });

  it('offers an equipped stack only the stacks equipped alike', async () => {
    const worn = buildItem({ id: 'item-5', quantity: 4, instance_data: { is_equipped: true } });
    const alsoWorn = buildItem({ id: 'item-6', quantity: 3, instance_data: { is_equipped: true } });
    mockFetch(() => stacksResponse([arrows, otherArrows, worn, alsoWorn]));
    renderBody(worn);
    fireEvent.click(await screen.findByRole('button', { name: 'Merge with another stack' }));
    fireEvent.click(screen.getByRole('combobox', { name: 'Stack to merge with' }));
    expect((await screen.findAllByRole('option')).map((o) => o.textContent)).toEqual(['Arrow ×3']);
  });

  it("shows the server's refusal", async () => {
    mockFetch(({ init }) =>
      init.method === 'POST'
        ? failure(422, 'VALIDATION_ERROR', 'Validation failed', [
            { field: 'target_instance_id', message: inventoryMessages.mergeDifferent },
          ])
        : stacksResponse(),
    );
    const toastError = vi.spyOn(toast, 'error');
    renderBody();
    fireEvent.click(await screen.findByRole('button', { name: 'Merge with another stack' }));
    fireEvent.click(screen.getByRole('button', { name: 'Merge Stacks' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(inventoryMessages.mergeDifferent);
    expect(toastError).toHaveBeenCalledWith(inventoryMessages.mergeDifferent);
  });

  it('a plan refusal says what the plan lacks and links to the upgrade, in the form and in the toast', async () => {
    const refusal = 'Party collaboration is not included in your Free plan.';
    mockFetch(({ init }) =>
      init.method === 'POST'
        ? failure(403, 'FEATURE_NOT_AVAILABLE', refusal, [
            { field: 'party_collaboration', message: refusal, feature: 'party_collaboration' },
          ])
        : stacksResponse(),
    );
    const toastError = vi.spyOn(toast, 'error');
    renderBody();
    fireEvent.click(await screen.findByRole('button', { name: 'Merge with another stack' }));
    fireEvent.click(screen.getByRole('button', { name: 'Merge Stacks' }));
    const upgrade = await screen.findByRole('link', { name: 'See upgrade options' });
    expect(upgrade).toHaveAttribute('href', '/subscription/upgrade?feature=party_collaboration');
    expect(screen.getByTestId('upgrade-prompt')).toHaveTextContent(refusal);
    expect(toastError).toHaveBeenCalledWith(refusal, undefined, {
      label: 'See upgrade options',
      href: '/subscription/upgrade?feature=party_collaboration',
    });
  });

  it('is not offered when no other plain stack of the item is there, nor for a stack with overrides', async () => {
    const fetchMock = mockFetch(() => stacksResponse([arrows, elvenArrows, sword]));
    renderBody();
    await waitFor(() => expect(fetchMock).toHaveBeenCalledTimes(1));
    expect(screen.queryByRole('button', { name: 'Merge with another stack' })).not.toBeInTheDocument();

    fetchMock.mockClear();
    renderBody(elvenArrows);
    expect(screen.getAllByRole('button', { name: 'Split' }).length).toBeGreaterThan(0);
    expect(fetchMock).not.toHaveBeenCalled();
  });
});
