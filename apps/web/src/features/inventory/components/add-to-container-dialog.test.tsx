import { partyMessages } from '@haversack/contracts';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { mockFetch, success } from '../../../test/fixtures';
import { buildCharacter, buildParty } from '../../../test/party-fixtures';
import { buildContainer, renderWithProviders } from '../test/inventory-fixtures';
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
