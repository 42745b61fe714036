import { lootMessages, type Party, partyMessages } from '@haversack/contracts';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useLocation } from 'react-router';
import { describe, expect, it, vi } from 'vitest';
import { useUiStore } from '../../../stores/ui-store';
import { failure, jsonResponse, mockFetch, success } from '../../../test/fixtures';
import { buildParty, pageMeta } from '../../../test/party-fixtures';
import { renderRoutes } from '../../../test/render';
import { buildLootInstance, buildLootTemplate } from '../test/loot-fixtures';
import { DeployLootDialog, noGmParties } from './deploy-loot-dialog';

const template = buildLootTemplate({ id: 'lt-1', name: 'Goblin Boss Hoard', source: 'Goblin boss' });

function PartyPage() {
  const location = useLocation();
  return <p>Party page {`${location.pathname}${location.search}`}</p>;
}

function renderDialog(initialPartyId: string | null = null) {
  return renderRoutes(
    [
      {
        path: '/loot/templates',
        element: <DeployLootDialog template={template} initialPartyId={initialPartyId} onClose={() => {}} />,
      },
      { path: '/parties/:id', element: <PartyPage /> },
    ],
    '/loot/templates',
  );
}

function serve(parties: Party[], deploy: () => Response = () => success(buildLootInstance(), 201)) {
  return mockFetch(({ url, init }) => {
    if (url.includes('/parties?')) {
      return jsonResponse(200, { status: 'success', data: parties, meta: pageMeta(parties.length, 100) });
    }
    if (url.endsWith('/loot_instances') && init.method === 'POST') return deploy();
    return failure(404, 'NOT_FOUND', 'Not found');
  });
}

const gm = buildParty({ id: 'party-gm', name: 'Lanterns', user_role: 'gm', is_gm: true });

describe('DeployLootDialog', () => {
  it('starts on its first field, Party, once my parties are in, not on its close button', async () => {
    serve([gm]);
    renderDialog();
    const dialog = await screen.findByRole('dialog', { name: 'Deploy Goblin Boss Hoard' });
    await waitFor(() => expect(within(dialog).getByRole('combobox', { name: 'Party' })).toHaveFocus());
  });

  it('lists only the active parties I run as GM', async () => {
    serve([
      gm,
      buildParty({ id: 'party-2', name: 'Second Table', user_role: 'gm', is_gm: true }),
      buildParty({ id: 'party-player', name: 'Where I Play', user_role: 'player' }),
      buildParty({ id: 'party-manager', name: 'Where I Manage', user_role: 'manager' }),
      buildParty({ id: 'party-old', name: 'Old Campaign', user_role: 'gm', is_gm: true, is_archived: true }),
    ]);
    const user = userEvent.setup();
    renderDialog();
    const dialog = await screen.findByRole('dialog', { name: 'Deploy Goblin Boss Hoard' });
    await user.click(await within(dialog).findByRole('combobox', { name: 'Party' }));
    const options = (await screen.findAllByRole('option')).map((o) => o.textContent);
    expect(options).toEqual(['Lanterns', 'Second Table']);
  });

  it('says so when I run no party', async () => {
    serve([buildParty({ user_role: 'player' })]);
    renderDialog();
    expect(await screen.findByText(noGmParties)).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Create a Party' })).toHaveAttribute('href', '/parties/new');
  });

  it('deploys with the template’s name and source by default, toasts and opens the party’s Loot tab', async () => {
    const fetchMock = serve([gm, buildParty({ id: 'party-2', name: 'Second Table', user_role: 'gm' })], () =>
      success(buildLootInstance({ party_id: 'party-gm' }), 201),
    );
    const user = userEvent.setup();
    renderDialog('party-gm');
    const dialog = await screen.findByRole('dialog', { name: 'Deploy Goblin Boss Hoard' });
    await vi.waitFor(() =>
      expect(within(dialog).getByRole('combobox', { name: 'Party' })).toHaveValue('Lanterns'),
    );
    expect(within(dialog).getByRole('textbox', { name: 'Loot name' })).toHaveValue('Goblin Boss Hoard');
    expect(within(dialog).getByRole('textbox', { name: 'Source' })).toHaveValue('Goblin boss');
    await user.type(within(dialog).getByRole('textbox', { name: 'Location' }), 'Throne room');
    await user.click(within(dialog).getByRole('button', { name: 'Deploy Loot' }));

    expect(await screen.findByText('Party page /parties/party-gm?tab=loot')).toBeInTheDocument();
    const post = fetchMock.mock.calls.find(
      ([url, init]) => init?.method === 'POST' && !String(url).includes('/subscription/'),
    );
    expect(String(post?.[0])).toMatch(/\/api\/v1\/loot_instances$/);
    expect(JSON.parse(String(post?.[1]?.body))).toEqual({
      loot_instance: {
        loot_template_id: 'lt-1',
        party_id: 'party-gm',
        name: 'Goblin Boss Hoard',
        source: 'Goblin boss',
        location_name: 'Throne room',
      },
    });
    expect(useUiStore.getState().toasts.at(-1)).toMatchObject({
      kind: 'success',
      message: lootMessages.deployed,
    });
  });

  it('toasts the server’s reason when the deployment is refused', async () => {
    serve([gm], () => failure(403, 'FORBIDDEN', partyMessages.gmOnly));
    const user = userEvent.setup();
    renderDialog();
    const dialog = await screen.findByRole('dialog', { name: 'Deploy Goblin Boss Hoard' });
    // The only party I run is chosen for me.
    await vi.waitFor(() =>
      expect(within(dialog).getByRole('combobox', { name: 'Party' })).toHaveValue('Lanterns'),
    );
    await user.click(within(dialog).getByRole('button', { name: 'Deploy Loot' }));
    await vi.waitFor(() =>
      expect(useUiStore.getState().toasts.at(-1)).toMatchObject({
        kind: 'error',
        message: partyMessages.gmOnly,
      }),
    );
    expect(screen.getByRole('dialog', { name: 'Deploy Goblin Boss Hoard' })).toBeInTheDocument();
  });

  it('says a used-up loot limit in the chosen party up front, and keeps Deploy Loot off', async () => {
    mockFetch(({ url, init }) => {
      if (url.includes('/parties?'))
        return jsonResponse(200, { status: 'success', data: [gm], meta: pageMeta(1, 100) });
      const asked = init.body ? JSON.parse(String(init.body)) : {};
      if (url.endsWith('/subscription/check_limit') && asked.party_id === gm.id) {
        const allowed = asked.resource !== 'loot_instances';
        return success({
          allowed,
          resource: asked.resource,
          limit: 1,
          used: allowed ? 0 : 1,
          remaining: allowed ? 1 : 0,
          ...(allowed ? {} : { message: 'Your Free plan allows 1 active loot. Upgrade to deploy more.' }),
        });
      }
      return failure(404, 'NOT_FOUND', 'Not found');
    });
    renderDialog();
    const dialog = await screen.findByRole('dialog', { name: 'Deploy Goblin Boss Hoard' });
    expect(
      await within(dialog).findByText('Your Free plan allows 1 active loot. Upgrade to deploy more.'),
    ).toBeInTheDocument();
    expect(within(dialog).getByRole('link', { name: /upgrade/i })).toHaveAttribute(
      'href',
      '/subscription/upgrade?resource=loot_instances',
    );
    expect(within(dialog).getByRole('button', { name: 'Deploy Loot' })).toBeDisabled();
  });
});
