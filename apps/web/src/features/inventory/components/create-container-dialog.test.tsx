import { containerFormSchema, inventoryMessages } from '@haversack/contracts';
import { fireEvent, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { failure, mockFetch, success } from '../../../test/fixtures';
import { buildContainer, renderWithProviders } from '../test/inventory-fixtures';
import {
  CreateContainerDialog,
  EditContainerDialog,
  partyContainerNeedsCollaboration,
} from './create-container-dialog';

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

describe('the length of what is typed', () => {
  it('stops the name and the description at the server’s limits, not before', () => {
    mockFetch(() => success(buildContainer()));
    renderWithProviders(
      <CreateContainerDialog
        opened
        owner={{ type: 'character', id: 'character-1' }}
        onClose={() => undefined}
      />,
    );
    const name = screen.getByRole('textbox', { name: /Container Name/ });
    const description = screen.getByRole('textbox', { name: 'Description (optional)' });
    expect(name).toHaveAttribute('maxlength');
    expect(description).toHaveAttribute('maxlength');
    // A name the field lets through is one the server keeps, and one character more is refused there.
    const longest = (field: HTMLElement) => Number(field.getAttribute('maxlength'));
    const accepts = (values: { name: string; description?: string }) =>
      containerFormSchema.safeParse(values).success;
    expect(accepts({ name: 'n'.repeat(longest(name)) })).toBe(true);
    expect(accepts({ name: 'n'.repeat(longest(name) + 1) })).toBe(false);
    expect(accepts({ name: 'Bag', description: 'd'.repeat(longest(description)) })).toBe(true);
    expect(accepts({ name: 'Bag', description: 'd'.repeat(longest(description) + 1) })).toBe(false);
  });
});

describe('a refusal of the whole container', () => {
  it('says why in the dialog, keeps what was typed, and clears on cancel and on the next try', async () => {
    // A 422 that names no field of the form (the owner is full): VALIDATION_ERROR never toasts.
    const message = inventoryMessages.containerLimit('party');
    let refuse = true;
    const fetchMock = mockFetch(() =>
      refuse
        ? failure(422, 'VALIDATION_ERROR', message, [{ field: 'container', message }])
        : success(buildContainer({ id: 'container-3', name: 'Wagon' }), 201),
    );
    const onClose = vi.fn();
    const user = userEvent.setup();
    renderWithProviders(
      <CreateContainerDialog opened owner={{ type: 'party', id: 'party-1' }} onClose={onClose} />,
    );
    await user.type(screen.getByRole('textbox', { name: /Container Name/ }), 'Wagon');
    await user.click(screen.getByRole('button', { name: 'Create Container' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'A party can have at most 200 containers. Delete one first.',
    );
    expect(screen.getByRole('textbox', { name: /Container Name/ })).toHaveValue('Wagon');
    expect(onClose).not.toHaveBeenCalled();
    // Cancelled, the refusal goes with that attempt (the dialog stays mounted, to be opened again).
    await user.click(screen.getByRole('button', { name: 'Cancel' }));
    expect(onClose).toHaveBeenCalledTimes(1);
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Create Container' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(message);
    refuse = false;
    await user.click(screen.getByRole('button', { name: 'Create Container' }));
    await waitFor(() => expect(onClose).toHaveBeenCalledTimes(2));
    // Three tries (the dialog's question of the plan aside).
    const creates = fetchMock.mock.calls.filter(([url]) => String(url).endsWith('/containers'));
    expect(creates).toHaveLength(3);
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
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

describe('a party container on a plan without party collaboration', () => {
  it('says so up front, with the way to upgrade, and keeps Create disabled', async () => {
    const fetchMock = mockFetch(({ url }) =>
      String(url).endsWith('/subscription/check_feature')
        ? success({ allowed: false, feature: 'party_collaboration' })
        : failure(404, 'RESOURCE_NOT_FOUND', 'none'),
    );
    const user = userEvent.setup();
    renderWithProviders(
      <CreateContainerDialog opened owner={{ type: 'party', id: 'party-1' }} onClose={() => undefined} />,
    );
    const prompt = await screen.findByTestId('upgrade-prompt');
    expect(prompt).toHaveTextContent('Party collaboration is not included in your plan');
    expect(prompt).toHaveTextContent(partyContainerNeedsCollaboration);
    expect(screen.getByRole('link', { name: 'See upgrade options' })).toHaveAttribute(
      'href',
      '/subscription/upgrade?feature=party_collaboration',
    );
    const check = fetchMock.mock.calls.find(([url]) => String(url).endsWith('/subscription/check_feature'));
    expect(JSON.parse(String(check?.[1]?.body))).toEqual({
      feature: 'party_collaboration',
      party_id: 'party-1',
    });
    await user.type(screen.getByRole('textbox', { name: /Container Name/ }), 'Treasure Chest');
    expect(screen.getByRole('button', { name: 'Create Container' })).toBeDisabled();
  });

  it('asks nothing for a character’s container, and lets a party container be made when the plan allows', async () => {
    const fetchMock = mockFetch(({ url }) =>
      String(url).endsWith('/subscription/check_feature')
        ? success({ allowed: true, feature: 'party_collaboration' })
        : failure(404, 'RESOURCE_NOT_FOUND', 'none'),
    );
    const user = userEvent.setup();
    const { unmount } = renderWithProviders(
      <CreateContainerDialog opened owner={{ type: 'character', id: 'c-1' }} onClose={() => undefined} />,
    );
    await user.type(screen.getByRole('textbox', { name: /Container Name/ }), 'Pouch');
    expect(screen.getByRole('button', { name: 'Create Container' })).toBeEnabled();
    expect(fetchMock).not.toHaveBeenCalled();
    unmount();

    renderWithProviders(
      <CreateContainerDialog opened owner={{ type: 'party', id: 'party-1' }} onClose={() => undefined} />,
    );
    await waitFor(() => expect(fetchMock).toHaveBeenCalledTimes(1));
    await user.type(screen.getByRole('textbox', { name: /Container Name/ }), 'Chest');
    expect(screen.getByRole('button', { name: 'Create Container' })).toBeEnabled();
    expect(screen.queryByTestId('upgrade-prompt')).not.toBeInTheDocument();
  });
});
