import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { failure, mockFetch, success } from '../../../test/fixtures';
import { buildItem, renderWithProviders } from '../test/inventory-fixtures';
import { GiveItemDialog, GiveItemForm } from './give-item-dialog';

afterEach(() => vi.unstubAllGlobals());

function character(id: string, name: string, overrides: Record<string, unknown> = {}) {
  return {
    id,
    user_id: `user-${id}`,
    player_name: null,
    name,
    race: '',
    character_class: '',
    level: 1,
    notes: '',
    image_url: '',
    max_weight: 50,
    max_slots: 20,
    party_id: 'party-1',
    party_name: 'The Company',
    primary_container_id: `bag-${id}`,
    is_owner: false,
    created_at: '2026-01-01T00:00:00.000Z',
    updated_at: '2026-01-01T00:00:00.000Z',
    ...overrides,
  };
}

const pip = character('pip', 'Pip', { is_owner: true });
const party = [
  pip,
  character('brom', 'Brom', { player_name: 'Sam' }),
  character('alt', 'Pip’s alt', { is_owner: true }),
];

/** The party's characters and the give's answer; the characters' list is a dropped connection once `connected` says so. */
function serve(give: () => Response, connected = () => true) {
  return mockFetch(({ url }) => {
    if (url.includes('/give')) return give();
    if (url.includes('/characters/pip')) return success(pip);
    if (url.includes('/characters?')) {
      if (!connected()) throw new TypeError('Failed to fetch');
      return new Response(
        JSON.stringify({
          status: 'success',
          data: party,
          meta: { current_page: 1, total_pages: 1, total_count: 3, per_page: 100 },
        }),
        { status: 200, headers: { 'Content-Type': 'application/json' } },
      );
    }
    return success([]);
  });
}

describe('GiveItemForm (issue 12 §8)', () => {
  it('offers the party’s other players’ characters and sends the character and quantity', async () => {
    const fetchMock = serve(() =>
      success({
        success: true,
        message: 'Item transferred successfully',
        moved: 2,
        source_instance: null,
        target_instances: [],
        transaction_ids: ['t1'],
      }),
    );
    const onDone = vi.fn();
    const user = userEvent.setup();
    renderWithProviders(
      <GiveItemForm item={buildItem({ name: 'Rope', quantity: 5 })} ownerCharacterId="pip" onDone={onDone} />,
    );

    await user.click(await screen.findByRole('combobox', { name: 'Give to' }));
    const options = await screen.findAllByRole('option');
    expect(options.map((o) => o.textContent)).toEqual(['Brom (Sam)']);
    await user.click(options[0] as HTMLElement);
    fireEvent.change(screen.getByRole('textbox', { name: 'Quantity' }), { target: { value: '2' } });
    await user.click(screen.getByRole('button', { name: 'Give' }));

    await waitFor(() => expect(onDone).toHaveBeenCalled());
    const call = fetchMock.mock.calls.find(([url]) => String(url).includes('/give'));
    expect(String(call?.[0])).toBe('/api/v1/item_instances/item-1/give');
    expect(call?.[1]?.method).toBe('POST');
    expect(JSON.parse(String(call?.[1]?.body))).toEqual({ character_id: 'brom', quantity: 2 });
  });

  it('says Give to is required while Give is off for want of a character', async () => {
    serve(() => failure(500, 'INTERNAL_ERROR', 'Nope'));
    const user = userEvent.setup();
    renderWithProviders(
      <GiveItemForm
        item={buildItem({ name: 'Rope', quantity: 5 })}
        ownerCharacterId="pip"
        onDone={vi.fn()}
      />,
    );
    const recipient = await screen.findByRole('combobox', { name: 'Give to' });
    expect(recipient).toBeRequired();
    expect(screen.getByRole('button', { name: 'Give' })).toBeDisabled();
    await user.click(recipient);
    await user.click(await screen.findByRole('option', { name: 'Brom (Sam)' }));
    expect(screen.getByRole('button', { name: 'Give' })).toBeEnabled();
  });

  it('refuses more than the stack, and shows the server’s refusal in the form', async () => {
    serve(() => failure(403, 'FORBIDDEN', 'Observers cannot give items.'));
    const user = userEvent.setup();
    renderWithProviders(
      <GiveItemForm
        item={buildItem({ name: 'Rope', quantity: 5 })}
        ownerCharacterId="pip"
        onDone={vi.fn()}
      />,
    );
    await user.click(await screen.findByRole('combobox', { name: 'Give to' }));
    await user.click((await screen.findAllByRole('option'))[0] as HTMLElement);
    const quantity = screen.getByRole('textbox', { name: 'Quantity' });
    fireEvent.change(quantity, { target: { value: '6' } });
    expect(screen.getByRole('button', { name: 'Give' })).toBeDisabled();
    fireEvent.change(quantity, { target: { value: '1' } });
    await user.click(screen.getByRole('button', { name: 'Give' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Observers cannot give items.');
  });

  it('keeps the form when a refresh of the party’s characters fails, with a note', async () => {
    let connected = true;
    serve(
      () => success({}),
      () => connected,
    );
    const { queryClient } = renderWithProviders(
      <GiveItemForm
        item={buildItem({ name: 'Rope', quantity: 5 })}
        ownerCharacterId="pip"
        onDone={vi.fn()}
      />,
    );
    expect(await screen.findByRole('combobox', { name: 'Give to' })).toBeInTheDocument();
    connected = false;
    await queryClient.refetchQueries({ queryKey: ['characters', 'party'] });
    await waitFor(() => expect(screen.getByTestId('refresh-failed-note')).toBeVisible(), { timeout: 5_000 });
    expect(screen.getByRole('combobox', { name: 'Give to' })).toBeInTheDocument();
    expect(screen.queryByText('Could not load the party’s characters')).not.toBeInTheDocument();
  }, 20_000);

  it('says so when nobody else in the party has a character', async () => {
    mockFetch(({ url }) => {
      if (url.includes('/characters/pip')) return success(pip);
      return new Response(
        JSON.stringify({
          status: 'success',
          data: [pip],
          meta: { current_page: 1, total_pages: 1, total_count: 1, per_page: 100 },
        }),
        { status: 200, headers: { 'Content-Type': 'application/json' } },
      );
    });
    renderWithProviders(<GiveItemForm item={buildItem()} ownerCharacterId="pip" onDone={vi.fn()} />);
    expect(await screen.findByText('Nobody else in the party has a character yet.')).toBeInTheDocument();
  });

  it('points a character outside any party to moving the item to my own other characters', async () => {
    const loner = character('pip', 'Pip', { is_owner: true, party_id: null, party_name: null });
    mockFetch(({ url }) => (url.includes('/characters/pip') ? success(loner) : success([])));
    renderWithProviders(<GiveItemForm item={buildItem()} ownerCharacterId="pip" onDone={vi.fn()} />);
    expect(
      await screen.findByText(
        'This character is not in a party, so there is nobody to give it to. To hand it to another of your characters, move it into one of their containers.',
      ),
    ).toBeInTheDocument();
  });

  it('keeps a 0 typed as typed on leaving the field, and gives nothing', async () => {
    const fetchMock = serve(() => success({}));
    const user = userEvent.setup();
    renderWithProviders(
      <GiveItemForm
        item={buildItem({ name: 'Rope', quantity: 5 })}
        ownerCharacterId="pip"
        onDone={vi.fn()}
      />,
    );
    await user.click(await screen.findByRole('combobox', { name: 'Give to' }));
    await user.click((await screen.findAllByRole('option'))[0] as HTMLElement);
    const quantity = screen.getByRole('textbox', { name: 'Quantity' });
    await user.clear(quantity);
    await user.type(quantity, '0');
    await user.tab();
    expect(quantity).toHaveValue('0');
    expect(screen.getByText('Choose between 1 and 5')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Give' })).toBeDisabled();
    expect(fetchMock.mock.calls.filter(([url]) => String(url).includes('/give'))).toHaveLength(0);
  });
});

describe('GiveItemDialog title', () => {
  it('ends a long name after two lines, the full name its accessible name and tooltip', async () => {
    mockFetch(() => failure(404, 'RESOURCE_NOT_FOUND', 'Not found'));
    const name = `Sword of ${'the very long and winding name '.repeat(6)}`.trim();
    renderWithProviders(
      <GiveItemDialog item={buildItem({ name })} ownerCharacterId="pip" opened onClose={vi.fn()} />,
    );
    const dialog = await screen.findByRole('dialog', { name: `Give ${name}` });
    const title = within(dialog).getByTestId('clamped-title');
    expect(title).toHaveAttribute('title', `Give ${name}`);
    expect(title.style.getPropertyValue('--text-line-clamp')).toBe('2');
  });
});

describe('GiveItemDialog and Escape', () => {
  it('asks before Escape throws away a chosen character', async () => {
    serve(() => failure(500, 'INTERNAL_ERROR', 'Nope'));
    const user = userEvent.setup();
    const onClose = vi.fn();
    renderWithProviders(
      <GiveItemDialog
        item={buildItem({ name: 'Rope', quantity: 5 })}
        ownerCharacterId="pip"
        opened
        onClose={onClose}
      />,
    );
    const dialog = await screen.findByRole('dialog', { name: 'Give Rope' });
    const recipient = await within(dialog).findByRole('combobox', { name: 'Give to' });
    await user.click(recipient);
    await user.click(await screen.findByRole('option', { name: 'Brom (Sam)' }));
    await user.keyboard('{Escape}');
    const ask = await screen.findByRole('dialog', { name: 'Close without saving?' });
    expect(ask).toHaveTextContent('You have unsaved changes.');
    expect(onClose).not.toHaveBeenCalled();
    await user.click(within(ask).getByRole('button', { name: 'Keep editing' }));
    await waitFor(() =>
      expect(screen.queryByRole('dialog', { name: 'Close without saving?' })).not.toBeInTheDocument(),
    );
    expect(onClose).not.toHaveBeenCalled();
    await user.keyboard('{Escape}');
    await user.click(
      within(await screen.findByRole('dialog', { name: 'Close without saving?' })).getByRole('button', {
        name: 'Discard changes',
      }),
    );
    expect(onClose).toHaveBeenCalledTimes(1);
  });

  it('asks on Cancel too, as Escape does', async () => {
    serve(() => failure(500, 'INTERNAL_ERROR', 'Nope'));
    const user = userEvent.setup();
    const onClose = vi.fn();
    renderWithProviders(
      <GiveItemDialog
        item={buildItem({ name: 'Rope', quantity: 5 })}
        ownerCharacterId="pip"
        opened
        onClose={onClose}
      />,
    );
    const dialog = await screen.findByRole('dialog', { name: 'Give Rope' });
    await user.click(await within(dialog).findByRole('combobox', { name: 'Give to' }));
    await user.click(await screen.findByRole('option', { name: 'Brom (Sam)' }));
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    const ask = await screen.findByRole('dialog', { name: 'Close without saving?' });
    expect(onClose).not.toHaveBeenCalled();
    await user.click(within(ask).getByRole('button', { name: 'Discard changes' }));
    expect(onClose).toHaveBeenCalledTimes(1);
  });
});
