import { inventoryMessages, partyMessages } from '@haversack/contracts';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { describe, expect, it } from 'vitest';
import { useUiStore } from '../../../stores/ui-store';
import { pickContainerByTyping } from '../../../test/container-picker';
import { failure, mockFetch, success } from '../../../test/fixtures';
import { buildCharacter, buildParty } from '../../../test/party-fixtures';
import { buildContainer, buildPartyStash, renderWithProviders } from '../test/inventory-fixtures';
import { AddToContainerDialog } from './add-to-container-dialog';

const rope = { id: 'template-rope', name: 'Rope' };
const soloBag = buildContainer({
  id: 'bag-solo',
  name: 'Solo bag',
  character_id: 'character-solo',
  owner: { type: 'character', id: 'character-solo', name: 'Wanderer' },
});
const partyBag = buildContainer({
  id: 'bag-party',
  name: 'Party hero bag',
  character_id: 'character-party',
  owner: { type: 'character', id: 'character-party', name: 'Aria' },
});

/** A player with a character in a party and one in none; the party's rule is `rule`. */
function serve(rule: 'free' | 'gm_only') {
  return mockFetch(({ url }) => {
    if (url.includes('/characters?'))
      return success([
        buildCharacter({ id: 'character-party', name: 'Aria', party_id: 'party-1' }),
        buildCharacter({ id: 'character-solo', name: 'Wanderer', party_id: null, party_name: null }),
      ]);
    if (url.startsWith('/api/v1/parties?')) return success([]);
    if (url.includes('/characters/character-solo/containers')) return success([soloBag]);
    if (url.includes('/characters/character-party/containers')) return success([partyBag]);
    if (url.includes('/parties/party-1')) return success(buildParty({ id: 'party-1', item_conjuring: rule }));
    return success({});
  });
}

async function openContainerList() {
  const select = await screen.findByRole('combobox', { name: 'Container' });
  await userEvent.setup().click(select);
  return screen.findByRole('listbox');
}

describe('Add to container: when the containers cannot be loaded', () => {
  it('says so with Try Again, rather than "You need a character"', async () => {
    let down = true;
    const working = serve('free');
    mockFetch(({ url, init }) =>
      down && url.includes('/characters?')
        ? failure(500, 'INTERNAL_SERVER_ERROR', 'boom')
        : working(url, init),
    );
    renderWithProviders(<AddToContainerDialog template={rope} onClose={() => {}} />);
    const panel = await screen.findByTestId('error-panel', {}, { timeout: 10_000 });
    expect(panel).toHaveTextContent('Failed to load your containers');
    expect(screen.queryByText(/You need a character/)).not.toBeInTheDocument();
    down = false;
    await userEvent.click(within(panel).getByRole('button', { name: 'Try Again' }));
    expect(await screen.findByRole('combobox', { name: 'Container' })).toBeInTheDocument();
  }, 20_000);
});

describe('Add to container: the party rule for conjuring items (issue 12)', () => {
  it('offers a GM-only party’s containers disabled, with the reason, and picks an allowed one', async () => {
    serve('gm_only');
    renderWithProviders(<AddToContainerDialog template={rope} onClose={() => {}} />);
    expect(await screen.findByText(partyMessages.conjuringGmOnly)).toBeInTheDocument();
    const list = await openContainerList();
    expect(
      within(list).getByRole('option', { name: /Party hero bag .*\(GM only\)/, hidden: true }),
    ).toHaveAttribute('aria-disabled', 'true');
    expect(within(list).getByRole('option', { name: /Solo bag/, hidden: true })).not.toHaveAttribute(
      'aria-disabled',
      'true',
    );
    await waitFor(() =>
      expect((screen.getByRole('combobox', { name: 'Container' }) as HTMLInputElement).value).toMatch(
        /^Solo bag/,
      ),
    );
  });

  it('offers every container when the party lets players add freely', async () => {
    serve('free');
    renderWithProviders(<AddToContainerDialog template={rope} onClose={() => {}} />);
    const list = await openContainerList();
    await waitFor(() =>
      expect(within(list).getByRole('option', { name: /Party hero bag/, hidden: true })).not.toHaveAttribute(
        'aria-disabled',
        'true',
      ),
    );
    expect(screen.queryByText(partyMessages.conjuringGmOnly)).not.toBeInTheDocument();
  });
});

describe('Add to container: a party stash (the GM without a character keeps things there)', () => {
  const stash = buildPartyStash({ id: 'party-1', name: 'The Copper Road' });

  function serveGm(collaboration: boolean) {
    return mockFetch(({ url, init }) => {
      if (url.includes('/characters?')) return success([]);
      if (url.startsWith('/api/v1/parties?'))
        return success([
          buildParty({ id: 'party-1', name: 'The Copper Road', user_role: 'gm', is_member: true }),
        ]);
      if (url.includes('/parties/party-1/containers')) return success([stash]);
      if (url.includes('/parties/party-1'))
        return success(buildParty({ id: 'party-1', item_conjuring: 'free' }));
      if (url === '/api/v1/subscription/check_feature' && init.method === 'POST')
        return success({ allowed: collaboration, feature: 'party_collaboration' });
      return success({});
    });
  }

  it('offers a GM without a character their party’s stash instead of "You need a character"', async () => {
    const fetchMock = serveGm(true);
    const user = userEvent.setup();
    renderWithProviders(<AddToContainerDialog template={rope} onClose={() => {}} />);
    await waitFor(() =>
      expect((screen.getByRole('combobox', { name: 'Container' }) as HTMLInputElement).value).toMatch(
        /^Party Stash/,
      ),
    );
    expect(screen.queryByText(/You need a character/)).not.toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Add to Container' }));
    await waitFor(() =>
      expect(
        fetchMock.mock.calls.some(
          ([, init]) => init?.method === 'POST' && String(init.body).includes('"container_id":"stash-1"'),
        ),
      ).toBe(true),
    );
  });

  it('shows the stash locked when the plan lacks party collaboration, and adds nothing there', async () => {
    serveGm(false);
    renderWithProviders(<AddToContainerDialog template={rope} onClose={() => {}} />);
    expect(
      await screen.findByText(
        'Party collaboration is not included in your plan: a party’s stash is out of reach.',
      ),
    ).toBeInTheDocument();
    const list = await openContainerList();
    expect(
      within(list).getByRole('option', { name: /Party Stash.*\(paid plans\)/, hidden: true }),
    ).toHaveAttribute('aria-disabled', 'true');
    expect(screen.getByRole('button', { name: 'Add to Container' })).toBeDisabled();
  });
});

describe('Add to container: a GM and the party’s characters (DESIGN §4 Who may act)', () => {
  const stash = buildPartyStash({ id: 'party-1', name: 'The Copper Road' });
  const ariasBag = buildContainer({
    id: 'bag-aria',
    name: 'Backpack',
    character_id: 'character-aria',
    owner: { type: 'character', id: 'character-aria', name: 'Aria' },
  });
  const bromsBag = buildContainer({
    id: 'bag-brom',
    name: 'Backpack',
    character_id: 'character-brom',
    owner: { type: 'character', id: 'character-brom', name: 'Brom' },
  });

  /** A GM without a character (or a player, `isGm` false) in a party whose two players have a character each. */
  function serveParty(isGm: boolean) {
    return mockFetch(({ url, init }) => {
      if (url.includes('/characters?') && url.includes('party_id=party-1'))
        return success([
          buildCharacter({ id: 'character-aria', name: 'Aria', party_id: 'party-1', is_owner: false }),
          buildCharacter({ id: 'character-brom', name: 'Brom', party_id: 'party-1', is_owner: false }),
        ]);
      if (url.includes('/characters?')) return success([]);
      if (url.startsWith('/api/v1/parties?'))
        return success([
          buildParty({
            id: 'party-1',
            name: 'The Copper Road',
            user_role: isGm ? 'gm' : 'player',
            is_gm: isGm,
            is_member: true,
          }),
        ]);
      if (url.includes('/characters/character-aria/containers')) return success([ariasBag]);
      if (url.includes('/characters/character-brom/containers')) return success([bromsBag]);
      if (url.includes('/parties/party-1/containers')) return success([stash]);
      if (url.includes('/parties/party-1')) return success(buildParty({ id: 'party-1', is_gm: isGm }));
      if (url === '/api/v1/subscription/check_feature' && init.method === 'POST')
        return success({ allowed: true, feature: 'party_collaboration' });
      return success({});
    });
  }

  it('offers a GM without a character the stash first, then every party character’s container, and adds there', async () => {
    const fetchMock = serveParty(true);
    const user = userEvent.setup();
    renderWithProviders(<AddToContainerDialog template={rope} onClose={() => {}} />);
    const list = await openContainerList();
    await waitFor(() =>
      expect(
        within(list)
          .getAllByRole('option', { hidden: true })
          .map((option) => option.textContent?.split(' · ')[0]),
      ).toEqual(['Party Stash (The Copper Road)', 'Backpack (Aria)', 'Backpack (Brom)']),
    );
    expect((screen.getByRole('combobox', { name: 'Container' }) as HTMLInputElement).value).toMatch(
      /^Party Stash/,
    );
    await user.click(within(list).getByRole('option', { name: /Backpack \(Brom\)/, hidden: true }));
    await user.click(screen.getByRole('button', { name: 'Add to Container' }));
    await waitFor(() =>
      expect(
        fetchMock.mock.calls.some(
          ([, init]) => init?.method === 'POST' && String(init.body).includes('"container_id":"bag-brom"'),
        ),
      ).toBe(true),
    );
  });

  it('groups the containers by owner, and finds one by its owner’s name typed, for the keyboard to pick', async () => {
    const fetchMock = serveParty(true);
    const user = userEvent.setup();
    renderWithProviders(<AddToContainerDialog template={rope} onClose={() => {}} />);
    await openContainerList();
    const picker = await pickContainerByTyping(user, {
      label: 'Container',
      groups: ['The Copper Road', 'Aria', 'Brom'],
      typed: 'brom',
      matching: ['Backpack (Brom)'],
    });
    expect((picker as HTMLInputElement).value).toMatch(/^Backpack \(Brom\)/);
    await user.click(screen.getByRole('button', { name: 'Add to Container' }));
    await waitFor(() =>
      expect(
        fetchMock.mock.calls.some(
          ([, init]) => init?.method === 'POST' && String(init.body).includes('"container_id":"bag-brom"'),
        ),
      ).toBe(true),
    );
  });

  it('offers a player only their own containers and the stash, not the other players’', async () => {
    const fetchMock = serveParty(false);
    renderWithProviders(<AddToContainerDialog template={rope} onClose={() => {}} />);
    const list = await openContainerList();
    await waitFor(() =>
      expect(within(list).getByRole('option', { name: /Party Stash/, hidden: true })).toBeInTheDocument(),
    );
    expect(within(list).queryByRole('option', { name: /Backpack/, hidden: true })).not.toBeInTheDocument();
    expect(fetchMock.mock.calls.some(([url]) => String(url).includes('party_id=party-1'))).toBe(false);
  });
});

describe('Add to container: both reasons at once', () => {
  it('tells a free player in a GM-only party why their bag and why the stash are closed', async () => {
    const stash = buildPartyStash({ id: 'party-1', name: 'The Copper Road' });
    mockFetch(({ url, init }) => {
      if (url.includes('/characters?'))
        return success([buildCharacter({ id: 'character-party', name: 'Aria', party_id: 'party-1' })]);
      if (url.startsWith('/api/v1/parties?'))
        return success([
          buildParty({ id: 'party-1', name: 'The Copper Road', user_role: 'player', is_member: true }),
        ]);
      if (url.includes('/characters/character-party/containers')) return success([partyBag]);
      if (url.includes('/parties/party-1/containers')) return success([stash]);
      if (url.includes('/parties/party-1'))
        return success(buildParty({ id: 'party-1', item_conjuring: 'gm_only', is_gm: false }));
      if (url === '/api/v1/subscription/check_feature' && init.method === 'POST')
        return success({ allowed: false, feature: 'party_collaboration' });
      return success({});
    });
    renderWithProviders(<AddToContainerDialog template={rope} onClose={() => {}} />);
    const select = await screen.findByRole('combobox', { name: 'Container' });
    await waitFor(() =>
      expect(select).toHaveAccessibleDescription(
        `Party collaboration is not included in your plan: a party’s stash is out of reach. ${partyMessages.conjuringGmOnly}`,
      ),
    );
    expect(select).toHaveAttribute('placeholder', 'None you can add to');
    expect(screen.getByRole('button', { name: 'Add to Container' })).toBeDisabled();
  });
});

describe('Add to container: a refused add', () => {
  /**
   * A browser takes focus away from a button that becomes disabled (the pending submit) and leaves it on the
   * page; happy-dom keeps it on the button (and will not blur a disabled one). Do as the browser does, so the
   * test sees where focus ends up.
   */
  function dropFocusFromDisabledButtons() {
    const observer = new MutationObserver(() => {
      const focused = document.activeElement;
      if (focused instanceof HTMLButtonElement && focused.disabled) document.body.focus();
    });
    observer.observe(document.body, { attributes: true, attributeFilter: ['disabled'], subtree: true });
    return observer;
  }

  it('says why in the dialog, not in a toast, and keeps the keyboard in the dialog', async () => {
    useUiStore.setState({ toasts: [] });
    mockFetch(({ url, init }) => {
      if (url === '/api/v1/item_instances' && init.method === 'POST') {
        // The server takes a moment, as it does: long enough for the pending submit to be drawn.
        return new Promise<Response>((resolve) =>
          setTimeout(
            () => resolve(failure(422, 'CAPACITY_EXCEEDED', inventoryMessages.insufficientCapacity)),
            50,
          ),
        );
      }
      if (url.includes('/characters?'))
        return success([buildCharacter({ id: 'character-solo', name: 'Wanderer', party_id: null })]);
      if (url.startsWith('/api/v1/parties?')) return success([]);
      if (url.includes('/characters/character-solo/containers')) return success([soloBag]);
      return success({});
    });
    const user = userEvent.setup();
    renderWithProviders(<AddToContainerDialog template={rope} onClose={() => {}} />);
    const dialog = await screen.findByRole('dialog', { name: 'Add Rope' });
    await waitFor(() =>
      expect((within(dialog).getByRole('combobox', { name: 'Container' }) as HTMLInputElement).value).toMatch(
        /^Solo bag/,
      ),
    );
    const observer = dropFocusFromDisabledButtons();
    try {
      await user.clear(within(dialog).getByRole('textbox', { name: 'Quantity' }));
      await user.type(within(dialog).getByRole('textbox', { name: 'Quantity' }), '500');
      await user.click(within(dialog).getByRole('button', { name: 'Add to Container' }));
      expect(await within(dialog).findByRole('alert')).toHaveTextContent(
        inventoryMessages.insufficientCapacity,
      );
      await waitFor(() =>
        expect(document.activeElement).toBe(within(dialog).getByRole('button', { name: 'Add to Container' })),
      );
    } finally {
      observer.disconnect();
    }
    expect(useUiStore.getState().toasts.map((t) => t.message)).not.toContain(
      inventoryMessages.insufficientCapacity,
    );
  });

  it('gives the focus back to the button that opened it after an add, though the list drew it anew', async () => {
    mockFetch(({ url, init }) => {
      if (url === '/api/v1/item_instances' && init.method === 'POST')
        return new Promise<Response>((resolve) => setTimeout(() => resolve(success([], 201)), 50));
      if (url.includes('/characters?'))
        return success([buildCharacter({ id: 'character-solo', name: 'Wanderer', party_id: null })]);
      if (url.startsWith('/api/v1/parties?')) return success([]);
      if (url.includes('/characters/character-solo/containers')) return success([soloBag]);
      return success({});
    });
    /** The marketplace: a list whose button is drawn anew when the add is done (its counts refetched). */
    function Market() {
      const [adding, setAdding] = useState(false);
      const [drawn, setDrawn] = useState(0);
      return (
        <>
          <button
            key={drawn}
            type="button"
            aria-label="Add to Container: Rope"
            onClick={() => setAdding(true)}
          >
            Add to Container
          </button>
          <AddToContainerDialog
            template={adding ? rope : null}
            onClose={() => {
              setAdding(false);
              setDrawn((n) => n + 1);
            }}
          />
        </>
      );
    }
    const user = userEvent.setup();
    renderWithProviders(<Market />);
    await user.click(screen.getByRole('button', { name: 'Add to Container: Rope' }));
    const dialog = await screen.findByRole('dialog', { name: 'Add Rope' });
    await waitFor(() =>
      expect((within(dialog).getByRole('combobox', { name: 'Container' }) as HTMLInputElement).value).toMatch(
        /^Solo bag/,
      ),
    );
    const observer = dropFocusFromDisabledButtons();
    try {
      await user.click(within(dialog).getByRole('button', { name: 'Add to Container' }));
      await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
      await waitFor(() =>
        expect(screen.getByRole('button', { name: 'Add to Container: Rope' })).toHaveFocus(),
      );
    } finally {
      observer.disconnect();
    }
  });
});

describe('Add to container: once added', () => {
  it('closes as soon as the add is answered, without waiting for the containers to be read again', async () => {
    const working = serve('free');
    let added = false;
    mockFetch(({ url, init }) => {
      if (init.method === 'POST' && url === '/api/v1/item_instances') {
        added = true;
        return success([]);
      }
      // After the add, the container lists are read again on a slow connection: they never answer here.
      if (added && url.includes('/containers')) return new Promise<Response>(() => {});
      return working(url, init);
    });
    let closed = false;
    renderWithProviders(
      <AddToContainerDialog
        template={rope}
        onClose={() => {
          closed = true;
        }}
      />,
    );
    await waitFor(() =>
      expect((screen.getByRole('combobox', { name: 'Container' }) as HTMLInputElement).value).not.toBe(''),
    );
    await userEvent.setup().click(screen.getByRole('button', { name: 'Add to Container' }));
    await waitFor(() => expect(closed).toBe(true));
  });
});

describe('Add to container: the quantity', () => {
  it('keeps a 0 typed as typed, says a quantity is at least 1, and adds nothing', async () => {
    const fetchMock = mockFetch(({ url }) => {
      if (url.includes('/characters?'))
        return success([buildCharacter({ id: 'character-solo', name: 'Wanderer', party_id: null })]);
      if (url.startsWith('/api/v1/parties?')) return success([]);
      if (url.includes('/characters/character-solo/containers')) return success([soloBag]);
      return success({});
    });
    const user = userEvent.setup();
    renderWithProviders(<AddToContainerDialog template={rope} onClose={() => {}} />);
    const dialog = await screen.findByRole('dialog', { name: 'Add Rope' });
    await waitFor(() =>
      expect((within(dialog).getByRole('combobox', { name: 'Container' }) as HTMLInputElement).value).toMatch(
        /^Solo bag/,
      ),
    );
    const quantity = within(dialog).getByRole('textbox', { name: 'Quantity' });
    await user.clear(quantity);
    await user.type(quantity, '0');
    await user.click(within(dialog).getByRole('button', { name: 'Add to Container' }));
    expect(quantity).toHaveValue('0');
    expect(within(dialog).getByText('Quantity must be at least 1')).toBeInTheDocument();
    // The allowance question (check_limit) is a POST too; no add is.
    expect(
      fetchMock.mock.calls.filter(
        ([url, init]) => init?.method === 'POST' && String(url).endsWith('/item_instances'),
      ),
    ).toHaveLength(0);
  });
});

describe('Add to container: the dialog', () => {
  it('is wide (lg) so that a container label with its owner and fill does not get cut', async () => {
    mockFetch(() => success([]));
    renderWithProviders(<AddToContainerDialog template={rope} onClose={() => {}} />);
    const dialog = await screen.findByRole('dialog');
    expect(dialog.closest('.mantine-Modal-root')?.getAttribute('style')).toContain(
      '--modal-size: var(--modal-size-lg)',
    );
  });
});

describe('Add to container: the keyboard', () => {
  it('starts on the Container field, not on the close button, whether the containers load or are known', async () => {
    mockFetch(async ({ url }) => {
      // The containers take a moment the first time: the field is drawn before they are known.
      await new Promise((resolve) => setTimeout(resolve, 30));
      if (url.includes('/characters?'))
        return success([buildCharacter({ id: 'character-solo', name: 'Wanderer', party_id: null })]);
      if (url.startsWith('/api/v1/parties?')) return success([]);
      if (url.includes('/characters/character-solo/containers')) return success([soloBag]);
      return success({});
    });
    function Market() {
      const [adding, setAdding] = useState(false);
      return (
        <>
          <button type="button" aria-label="Add to Container: Rope" onClick={() => setAdding(true)}>
            Add to Container
          </button>
          <AddToContainerDialog template={adding ? rope : null} onClose={() => setAdding(false)} />
        </>
      );
    }
    const user = userEvent.setup();
    renderWithProviders(<Market />);
    const opener = screen.getByRole('button', { name: 'Add to Container: Rope' });
    for (const time of ['first', 'again']) {
      opener.focus();
      await user.keyboard('{Enter}');
      const dialog = await screen.findByRole('dialog', { name: 'Add Rope' });
      const field = within(dialog).getByRole('combobox', { name: 'Container' });
      await waitFor(() => expect(document.activeElement, `${time}: where the dialog starts`).toBe(field));
      await waitFor(() => expect((field as HTMLInputElement).value).toMatch(/^Solo bag/));
      expect(document.activeElement).toBe(field);
      await user.keyboard('{Escape}');
      await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    }
  });
});
