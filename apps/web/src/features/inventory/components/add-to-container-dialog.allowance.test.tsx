import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { mockFetch, success } from '../../../test/fixtures';
import { buildCharacter, buildParty } from '../../../test/party-fixtures';
import { buildContainer, buildPartyStash, renderWithProviders } from '../test/inventory-fixtures';
import { AddToContainerDialog } from './add-to-container-dialog';

const rope = { id: 'template-rope', name: 'Rope' };
/** Aria is in the party; the Wanderer is in none. Each has a bag; the party has its stash. */
const ariasBag = buildContainer({
  id: 'bag-aria',
  name: 'Aria’s bag',
  character_id: 'character-aria',
  party_id: null,
  owner: { type: 'character', id: 'character-aria', name: 'Aria' },
});
const soloBag = buildContainer({
  id: 'bag-solo',
  name: 'Solo bag',
  character_id: 'character-solo',
  party_id: null,
  owner: { type: 'character', id: 'character-solo', name: 'Wanderer' },
});
const stash = buildPartyStash({ id: 'party-1', name: 'The Copper Road' });

const personal = 'inventory_actions_personal_monthly';

type Allowance = 'spent' | 'open' | 'unlimited';
/** How check_limit answers one allowance asked in one party (undefined: asked without a party). */
type Allowances = (resource: string, partyId: string | undefined) => Allowance;

function limitAnswer(resource: string, allowance: Allowance) {
  if (allowance === 'unlimited') return { allowed: true, resource, limit: null, used: 250, remaining: null };
  const limit = resource === personal ? 100 : 200;
  return allowance === 'spent'
    ? { allowed: false, resource, limit, used: limit, remaining: 0 }
    : { allowed: true, resource, limit, used: 3, remaining: limit - 3 };
}

/** The player and their containers; records every add asked for (and refuses it, as the server would). */
function serve(allowances: Allowances) {
  const adds: string[] = [];
  mockFetch(({ url, init }) => {
    if (url === '/api/v1/subscription/check_limit') {
      const { resource, party_id } = JSON.parse(String(init.body)) as { resource: string; party_id?: string };
      return success(limitAnswer(resource, allowances(resource, party_id)));
    }
    if (init.method === 'POST' && url.includes('/item_instances')) {
      adds.push(String(init.body));
      return success([]);
    }
    if (url.includes('/characters?'))
      return success([
        buildCharacter({ id: 'character-aria', name: 'Aria', party_id: 'party-1' }),
        buildCharacter({ id: 'character-solo', name: 'Wanderer', party_id: null, party_name: null }),
      ]);
    if (url.startsWith('/api/v1/parties?'))
      return success([
        buildParty({ id: 'party-1', name: 'The Copper Road', user_role: 'player', is_member: true }),
      ]);
    if (url.includes('/characters/character-aria/containers')) return success([ariasBag]);
    if (url.includes('/characters/character-solo/containers')) return success([soloBag]);
    if (url.includes('/parties/party-1/containers')) return success([stash]);
    if (url.includes('/parties/party-1'))
      return success(buildParty({ id: 'party-1', item_conjuring: 'free' }));
    if (url === '/api/v1/subscription/check_feature')
      return success({ allowed: true, feature: 'party_collaboration' });
    return success({});
  });
  return { adds };
}

const personalReason = 'No personal inventory actions left this month';
const partyReason = 'No party inventory actions left this month';

async function openList() {
  const select = await screen.findByRole('combobox', { name: 'Container' });
  await userEvent.setup().click(select);
  return screen.findByRole('listbox');
}

const option = (list: HTMLElement, name: RegExp) => within(list).getByRole('option', { name, hidden: true });

describe('Add to Container at the month’s inventory-action limit', { timeout: 20_000 }, () => {
  it('shows the containers whose allowance is used up disabled, with why, and picks one still open', async () => {
    serve((resource) => (resource === personal ? 'spent' : 'open'));
    renderWithProviders(<AddToContainerDialog template={rope} onClose={() => {}} />);
    const list = await openList();
    // A new stack spends its container's allowance (inventory.service createInstance): a character's bag
    // the personal one, the stash the party's.
    await waitFor(() => expect(option(list, /^Aria’s bag/)).toHaveAttribute('aria-disabled', 'true'));
    expect(option(list, /^Aria’s bag/)).toHaveTextContent(personalReason);
    expect(option(list, /^Solo bag/)).toHaveAttribute('aria-disabled', 'true');
    expect(option(list, /^Party Stash/)).not.toHaveAttribute('aria-disabled', 'true');
    await waitFor(() =>
      expect((screen.getByRole('combobox', { name: 'Container' }) as HTMLInputElement).value).toMatch(
        /^Party Stash/,
      ),
    );
    expect(screen.getByRole('button', { name: 'Add to Container' })).not.toHaveAttribute('aria-disabled');
  });

  it('keeps Add to Container in place, disabled with why and the upgrade link, when every one is used up', async () => {
    const { adds } = serve(() => 'spent');
    const user = userEvent.setup();
    renderWithProviders(<AddToContainerDialog template={rope} onClose={() => {}} />);
    const dialog = await screen.findByRole('dialog', { name: 'Add Rope' });
    const submit = within(dialog).getByRole('button', { name: 'Add to Container' });
    await waitFor(() => expect(submit).toHaveAttribute('aria-disabled', 'true'));
    expect(submit).not.toBeDisabled();
    // The first of them stays chosen, so that the field and the line under it say which and why.
    expect((within(dialog).getByRole('combobox', { name: 'Container' }) as HTMLInputElement).value).toMatch(
      /^Aria’s bag/,
    );
    const note = within(dialog).getByTestId('add-allowance-refusal');
    expect(note).toHaveTextContent(`${personalReason}.`);
    expect(submit).toHaveAccessibleDescription(`${personalReason}.`);
    expect(within(note).getByRole('link', { name: 'See upgrade options' })).toHaveAttribute(
      'href',
      `/subscription/upgrade?resource=${personal}`,
    );
    const list = await openList();
    expect(option(list, /^Party Stash/)).toHaveTextContent(partyReason);
    await user.click(submit);
    expect(adds).toEqual([]);
  });

  it('reads a character’s allowance in its party: a sponsor’s plan there may leave it open', async () => {
    // The user's own plan is used up; in the party a sponsor's plan applies (check_limit with party_id).
    serve((resource, partyId) => (resource === personal && partyId === undefined ? 'spent' : 'open'));
    renderWithProviders(<AddToContainerDialog template={rope} onClose={() => {}} />);
    const list = await openList();
    await waitFor(() => expect(option(list, /^Solo bag/)).toHaveAttribute('aria-disabled', 'true'));
    expect(option(list, /^Solo bag/)).toHaveTextContent(personalReason);
    expect(option(list, /^Aria’s bag/)).not.toHaveAttribute('aria-disabled', 'true');
    expect(option(list, /^Party Stash/)).not.toHaveAttribute('aria-disabled', 'true');
  });

  it.each(['open', 'unlimited'] as const)(
    'offers every container when the allowances are %s',
    async (state) => {
      const { adds } = serve(() => state);
      const user = userEvent.setup();
      renderWithProviders(<AddToContainerDialog template={rope} onClose={() => {}} />);
      const list = await openList();
      await waitFor(() => expect(option(list, /^Solo bag/)).toBeInTheDocument());
      for (const name of [/^Aria’s bag/, /^Solo bag/, /^Party Stash/])
        expect(option(list, name)).not.toHaveAttribute('aria-disabled', 'true');
      await user.click(option(list, /^Solo bag/));
      const submit = screen.getByRole('button', { name: 'Add to Container' });
      expect(submit).not.toHaveAttribute('aria-disabled');
      expect(screen.queryByTestId('add-allowance-refusal')).not.toBeInTheDocument();
      await user.click(submit);
      await waitFor(() => expect(adds).toHaveLength(1));
      expect(adds[0]).toContain('"container_id":"bag-solo"');
    },
  );
});
