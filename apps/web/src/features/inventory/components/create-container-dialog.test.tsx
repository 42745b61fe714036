import { fireEvent, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { mockFetch, success } from '../../../test/fixtures';
import { buildContainer, renderWithProviders } from '../test/inventory-fixtures';
import { CreateContainerDialog, EditContainerDialog } from './create-container-dialog';

afterEach(() => vi.unstubAllGlobals());

describe('CreateContainerDialog (spec/02 §2)', () => {
  it('keeps Create disabled while the name is blank or a submit is pending, and sends the defaults', async () => {
    let finish: (response: Response) => void = () => undefined;
    const fetchMock = mockFetch(
      () =>
        new Promise<Response>((resolve) => {
          finish = resolve;
        }),
    );
    renderWithProviders(
      <CreateContainerDialog
        opened
        owner={{ type: 'character', id: 'character-1' }}
        onClose={() => undefined}
      />,
    );
    expect(screen.getByRole('textbox', { name: /Container Name/ })).toHaveAttribute(
      'placeholder',
      'e.g., Backpack, Belt Pouch, Chest',
    );
    expect(screen.getByRole('textbox', { name: 'Max Slots' })).toHaveAttribute('placeholder', 'Unlimited');
    const create = screen.getByRole('button', { name: 'Create Container' });
    expect(create).toBeDisabled();
    fireEvent.change(screen.getByRole('textbox', { name: /Container Name/ }), { target: { value: '   ' } });
    expect(create).toBeDisabled();
    fireEvent.change(screen.getByRole('textbox', { name: /Container Name/ }), {
      target: { value: 'Quiver' },
    });
    expect(create).toBeEnabled();

    fireEvent.click(create);
    await waitFor(() => expect(fetchMock).toHaveBeenCalledTimes(1));
    expect(screen.getByRole('button', { name: 'Create Container' })).toBeDisabled();
    const [url, init] = fetchMock.mock.calls[0] ?? [];
    expect(String(url)).toBe('/api/v1/characters/character-1/containers');
    expect(JSON.parse(String(init?.body))).toEqual({
      container: { name: 'Quiver', description: '', max_weight: 100, max_slots: 20 },
    });
    finish(success(buildContainer({ id: 'container-2', name: 'Quiver' }), 201));
  });
});

describe('EditContainerDialog', () => {
  it('renames an unlimited container without giving it limits, sending only the name', async () => {
    // spec/02 §3: 0 on create means unlimited, as null does.
    const sack = buildContainer({ id: 'sack-1', name: 'Sack', max_weight: 0, max_slots: 0 });
    const fetchMock = mockFetch(({ init }) =>
      success({ ...sack, ...JSON.parse(String(init.body)).container }),
    );
    const user = userEvent.setup();
    renderWithProviders(<EditContainerDialog opened container={sack} onClose={() => undefined} />);
    expect(screen.getByRole('textbox', { name: 'Max Slots' })).toHaveValue('');
    const name = screen.getByRole('textbox', { name: /Container Name/ });
    await user.clear(name);
    await user.type(name, 'Big Sack');
    await user.click(screen.getByRole('button', { name: 'Save Container' }));
    await waitFor(() => expect(fetchMock).toHaveBeenCalledTimes(1));
    const [url, init] = fetchMock.mock.calls[0] ?? [];
    expect(String(url)).toBe('/api/v1/containers/sack-1');
    expect(JSON.parse(String(init?.body))).toEqual({ container: { name: 'Big Sack' } });
  });
});
