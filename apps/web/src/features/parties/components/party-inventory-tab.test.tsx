import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { failure, jsonResponse, mockFetch, success } from '../../../test/fixtures';
import { buildCharacter, pageMeta } from '../../../test/party-fixtures';
import {
  partyCollaborationMissing,
  partyInventoryUnavailable,
} from '../../inventory/components/party-inventory';
import {
  buildContainer,
  buildPartyStash,
  renderWithProviders,
} from '../../inventory/test/inventory-fixtures';
import { PartyInventoryTab } from './party-inventory-tab';

const party = { id: '00000000-0000-4000-8000-0000000000aa', name: 'The Silver Lantern', is_gm: false };
const stash = buildPartyStash(party, {
  id: '00000000-0000-4000-8000-0000000000d1',
  items_count: 3,
  total_value_gp: 120,
  total_value_cp: 12_000,
  current_weight: 12,
  capacity: { used: 12, max: 100, slots_used: 3, slots_max: null, enforces: { weight: true, slots: false } },
  is_primary: true,
});
/** Someone else's character: the party has characters, just none of mine. */
const theirs = buildCharacter({ id: 'character-theirs', is_owner: false, party_id: party.id });

type Answer = () => Response | Promise<Response>;

/** The party's API: its characters (mine or not), what its containers list answers, a bag per character. */
function partyServer({
  characters = [theirs],
  containers,
  collaboration = true,
}: {
  characters?: unknown[];
  containers: Answer;
  /** Whether the plan that applies to the user in this party includes party collaboration. */
  collaboration?: boolean;
}) {
  return mockFetch(({ url, init }) => {
    const path = new URL(url, 'http://test').pathname.replace('/api/v1', '');
    if (path === '/characters') {
      return jsonResponse(200, {
        status: 'success',
        data: characters,
        meta: pageMeta(characters.length, 100),
      });
    }
    if (path === `/parties/${party.id}/containers`) return containers();
    if (/^\/characters\/[^/]+\/containers$/.test(path))
      return success([buildContainer({ name: 'Backpack' })]);
    if (init.method === 'POST' && path === '/subscription/check_feature') {
      return success({ allowed: collaboration, feature: 'party_collaboration' });
    }
    return failure(404, 'RESOURCE_NOT_FOUND', `No fake for ${path}`);
  });
}

describe('PartyInventoryTab', () => {
  it('says a container worth less than a gold piece in silver or copper, never "0 gp"', async () => {
    // A stash of 9 sp read "1 item · 0 gp", beside the party's wealth table saying "9 sp" of the same coins.
    const purse = buildPartyStash(party, { items_count: 1, total_value_gp: 0, total_value_cp: 90 });
    const trinkets = buildPartyStash(party, {
      id: 'stash-2',
      name: 'Trinkets',
      items_count: 2,
      total_value_gp: 1,
      total_value_cp: 111,
    });
    partyServer({ containers: () => success([purse, trinkets]) });
    renderWithProviders(<PartyInventoryTab party={party} />);
    const section = await screen.findByRole('region', { name: 'Party containers' });
    await within(section).findByRole('link', { name: 'Open Trinkets' });
    expect(
      within(section)
        .getAllByTestId('party-container-facts')
        .map((facts) => facts.textContent),
    ).toEqual(['1 item · 9 sp', '2 items · 1 gp 1 sp 1 cp']);
  });

  it('keeps the notice for a player without a character and adds a keyboard-reachable way into the stash', async () => {
    const user = userEvent.setup();
    partyServer({ containers: () => success([stash]) });
    renderWithProviders(<PartyInventoryTab party={party} />);

    // The spec's message and way forward stay as they were.
    expect(await screen.findByTestId('party-inventory-unavailable')).toHaveTextContent(
      partyInventoryUnavailable,
    );
    const create = screen.getByRole('link', { name: 'Create a character in this party' });

    const section = await screen.findByRole('region', { name: 'Party containers' });
    const open = await within(section).findByRole('link', { name: 'Open Party Stash' });
    expect(open).toHaveAttribute('href', `/containers/${stash.id}`);
    const card = within(section).getByTestId('party-container-card');
    expect(within(card).getByRole('heading', { name: 'Party Stash' })).toBeInTheDocument();
    expect(within(card).getByTestId('party-container-facts')).toHaveTextContent('3 items · 120 gp');
    expect(within(card).getByTestId('capacity-weight')).toHaveTextContent('12 / 100 lbs');
    // A member the server lets act on the stash: nothing says otherwise.
    expect(within(card).queryByText('View only')).not.toBeInTheDocument();

    await user.tab();
    expect(create).toHaveFocus();
    await user.tab();
    expect(open).toHaveFocus();
  });

  it('tells a new player without a plan for the stash why, with the upgrade link and the sponsor way in', async () => {
    partyServer({ containers: () => success([{ ...stash, can_act: false }]), collaboration: false });
    renderWithProviders(<PartyInventoryTab party={party} />);
    expect(await screen.findByTestId('party-inventory-unavailable')).toBeInTheDocument();
    const prompt = await screen.findByTestId('upgrade-prompt', {}, { timeout: 5_000 });
    expect(prompt).toHaveTextContent('Party collaboration is not included in your plan');
    expect(prompt).toHaveTextContent(partyCollaborationMissing);
    expect(prompt).toHaveTextContent(
      'your Game Master, or any member whose plan can sponsor players, can sponsor you',
    );
    expect(within(prompt).getByRole('link', { name: 'See upgrade options' })).toHaveAttribute(
      'href',
      '/subscription/upgrade?feature=party_collaboration',
    );
  });

  it('says nothing of plans to a player whose plan covers the stash', async () => {
    partyServer({ containers: () => success([stash]) });
    renderWithProviders(<PartyInventoryTab party={party} />);
    expect(await screen.findByTestId('party-container-card')).toBeInTheDocument();
    expect(screen.queryByTestId('upgrade-prompt')).not.toBeInTheDocument();
  });

  it('marks a container the user may only look at as view only', async () => {
    partyServer({ containers: () => success([{ ...stash, can_act: false }]) });
    renderWithProviders(<PartyInventoryTab party={party} />);
    const card = await screen.findByTestId('party-container-card');
    expect(within(card).getByText('View only')).toBeInTheDocument();
    expect(within(card).getByRole('link', { name: 'Open Party Stash' })).toBeInTheDocument();
  });

  it('shows skeletons while the containers load, an error panel if they fail, and retries', async () => {
    const user = userEvent.setup();
    let release: (response: Response) => void = () => {};
    let answer: Answer = () =>
      new Promise<Response>((resolve) => {
        release = resolve;
      });
    partyServer({ containers: () => answer() });
    renderWithProviders(<PartyInventoryTab party={party} />);

    const section = await screen.findByRole('region', { name: 'Party containers' });
    expect(within(section).getByTestId('party-skeletons')).toHaveAttribute('aria-busy', 'true');

    // A client error is not retried, so the panel comes at once.
    answer = () => failure(422, 'VALIDATION_ERROR', 'Broken');
    release(failure(422, 'VALIDATION_ERROR', 'Broken'));
    const panel = await within(section).findByTestId('error-panel');
    expect(panel).toHaveTextContent("Error loading the party's containers");
    expect(within(section).queryByRole('link', { name: /^Open / })).not.toBeInTheDocument();

    answer = () => success([stash]);
    await user.click(within(panel).getByRole('button', { name: 'Try Again' }));
    expect(await within(section).findByRole('link', { name: 'Open Party Stash' })).toBeInTheDocument();
    expect(within(section).queryByTestId('error-panel')).not.toBeInTheDocument();
  });

  it('adds nothing when the party’s containers are not readable', async () => {
    const fetchMock = partyServer({
      containers: () => failure(404, 'RESOURCE_NOT_FOUND', 'Party not found.'),
    });
    renderWithProviders(<PartyInventoryTab party={party} />);
    expect(await screen.findByTestId('party-inventory-unavailable')).toBeInTheDocument();
    await waitFor(() =>
      expect(fetchMock.mock.calls.some(([url]) => String(url).includes('/containers'))).toBe(true),
    );
    await waitFor(() => expect(screen.queryByRole('region', { name: 'Party containers' })).toBeNull());
    expect(screen.queryByTestId('error-panel')).not.toBeInTheDocument();
  });

  it('leaves a member with a character to the workspace, without the extra list', async () => {
    const hero = buildCharacter({ id: 'character-hero', is_owner: true, party_id: party.id });
    partyServer({ characters: [hero, theirs], containers: () => success([stash]) });
    renderWithProviders(<PartyInventoryTab party={party} />);
    expect(await screen.findByRole('heading', { name: 'Inventory Management' })).toBeInTheDocument();
    expect(screen.queryByTestId('party-inventory-unavailable')).not.toBeInTheDocument();
    expect(screen.queryByRole('region', { name: 'Party containers' })).not.toBeInTheDocument();
  });

  it('gives the GM of a party with no container, without a character, the workspace to make one in', async () => {
    const user = userEvent.setup();
    let made: unknown[] = [];
    const fetchMock = mockFetch(({ url, init }) => {
      const path = new URL(url, 'http://test').pathname.replace('/api/v1', '');
      if (path === '/characters')
        return jsonResponse(200, { status: 'success', data: [theirs], meta: pageMeta(1, 100) });
      if (path === `/parties/${party.id}/containers` && init.method === 'POST') {
        const body = JSON.parse(String(init.body)) as { container: { name: string } };
        made = [{ ...stash, name: body.container.name, items_count: 0 }];
        return jsonResponse(201, { status: 'success', data: made[0] });
      }
      if (path === `/parties/${party.id}/containers`) return success(made);
      return failure(404, 'RESOURCE_NOT_FOUND', `No fake for ${path}`);
    });
    renderWithProviders(<PartyInventoryTab party={{ ...party, is_gm: true }} />);
    // The GM without a character has the workspace (DESIGN §4 Who may act), not the notice and the list.
    expect(await screen.findByRole('heading', { name: 'Inventory Management' })).toBeInTheDocument();
    expect(screen.queryByTestId('party-inventory-unavailable')).not.toBeInTheDocument();
    expect(screen.queryByRole('region', { name: 'Party containers' })).not.toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'New Container' }));
    const dialog = await screen.findByRole('dialog', { name: 'Create New Container' });
    await user.type(within(dialog).getByLabelText(/Name/), 'Party Stash');
    await user.click(within(dialog).getByRole('button', { name: 'Create Container' }));
    expect((await screen.findAllByRole('region', { name: /Party Stash/ })).length).toBeGreaterThan(0);
    expect(
      fetchMock.mock.calls.some(
        ([url, init]) => init?.method === 'POST' && String(url).endsWith(`/parties/${party.id}/containers`),
      ),
    ).toBe(true);
  });

  it('offers a player of a party with no container nothing to make there', async () => {
    partyServer({ containers: () => success([]) });
    renderWithProviders(<PartyInventoryTab party={party} />);
    expect(await screen.findByText('This party has no containers yet.')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'New Container' })).not.toBeInTheDocument();
  });
});
