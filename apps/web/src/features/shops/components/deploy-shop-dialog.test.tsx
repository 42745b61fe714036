import type { Party } from '@haversack/contracts';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { describe, expect, it } from 'vitest';
import { failure, jsonResponse, mockFetch } from '../../../test/fixtures';
import { buildParty, pageMeta } from '../../../test/party-fixtures';
import { renderRoutes } from '../../../test/render';
import { buildShopTemplate } from '../test/shop-fixtures';
import { DeployShopDialog, noManagedParties } from './deploy-shop-dialog';

const template = buildShopTemplate({ id: 'st-1', name: 'General Store' });

function renderDialog() {
  return renderRoutes(
    [{ path: '/shops', element: <DeployShopDialog template={template} onClose={() => {}} /> }],
    '/shops',
  );
}

function serve(answer: () => Response) {
  return mockFetch(({ url }) =>
    url.includes('/parties?') ? answer() : failure(404, 'NOT_FOUND', 'Not found'),
  );
}

const listOf = (parties: Party[]) => () =>
  jsonResponse(200, { status: 'success', data: parties, meta: pageMeta(parties.length, 100) });

/** The Deploy button of a template's card, and the dialog it opens. */
function DeployButton() {
  const [deploying, setDeploying] = useState<typeof template | null>(null);
  return (
    <>
      <button type="button" onClick={() => setDeploying(template)}>
        Deploy
      </button>
      <DeployShopDialog template={deploying} onClose={() => setDeploying(null)} />
    </>
  );
}

async function openAndCloseByKeyboard(user: ReturnType<typeof userEvent.setup>) {
  await user.keyboard('{Enter}');
  const dialog = await screen.findByRole('dialog', { name: 'Deploy General Store' });
  await waitFor(() => expect(within(dialog).getByRole('combobox', { name: 'Party' })).toHaveFocus());
  await user.keyboard('{Escape}');
  await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
  await waitFor(() => expect(screen.getByRole('button', { name: 'Deploy' })).toHaveFocus());
}

describe('DeployShopDialog', () => {
  it('starts on its first field, Party, not on its close button: as my parties load, and once they are in', async () => {
    serve(listOf([buildParty({ id: 'p-1', name: 'Lanterns', user_role: 'manager' })]));
    const user = userEvent.setup();
    renderRoutes([{ path: '/shops', element: <DeployButton /> }], '/shops');
    await user.tab();
    expect(screen.getByRole('button', { name: 'Deploy' })).toHaveFocus();
    // The first time my parties load after the dialog opened; the second they are in already.
    await openAndCloseByKeyboard(user);
    await openAndCloseByKeyboard(user);
  });

  it('says why my parties did not load and loads them again on Try Again', async () => {
    let calls = 0;
    serve(() => {
      calls += 1;
      return calls === 1
        ? failure(403, 'FORBIDDEN', 'Your session cannot list parties right now.')
        : listOf([buildParty({ id: 'p-1', name: 'Lanterns', user_role: 'manager' })])();
    });
    const user = userEvent.setup();
    renderDialog();
    const dialog = await screen.findByRole('dialog', { name: 'Deploy General Store' });
    const alert = await within(dialog).findByRole('alert');
    expect(alert).toHaveTextContent('Unable to load your parties');
    expect(alert).toHaveTextContent('Your session cannot list parties right now.');
    expect(within(dialog).queryByText(noManagedParties)).not.toBeInTheDocument();
    await user.click(within(alert).getByRole('button', { name: 'Try Again' }));
    await user.click(await within(dialog).findByRole('combobox', { name: 'Party' }));
    expect((await screen.findAllByRole('option')).map((o) => o.textContent)).toEqual(['Lanterns']);
  });

  it('offers to create a party when I manage none', async () => {
    serve(listOf([buildParty({ user_role: 'player' })]));
    renderDialog();
    expect(await screen.findByText(noManagedParties)).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Create a Party' })).toHaveAttribute('href', '/parties/new');
  });
});
