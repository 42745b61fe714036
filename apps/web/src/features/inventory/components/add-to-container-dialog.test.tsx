import { partyMessages } from '@haversack/contracts';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { mockFetch, success } from '../../../test/fixtures';
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
