import { type Party, shopMessages } from '@haversack/contracts';
import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { describe, expect, it, vi } from 'vitest';
import { failure, jsonResponse, mockFetch, success } from '../../../test/fixtures';
import { buildParty, pageMeta } from '../../../test/party-fixtures';
import { renderRoutes } from '../../../test/render';
import { buildShopInstance, buildShopTemplate } from '../test/shop-fixtures';
import { DeployShopDialog, noManagedParties } from './deploy-shop-dialog';
import { freeShopWarning } from './discount-input';

const template = buildShopTemplate({ id: 'st-1', name: 'General Store' });

function renderDialog() {
  return renderRoutes(
    [
      { path: '/shops', element: <DeployShopDialog template={template} onClose={() => {}} /> },
      { path: '/shops/instances/:id', element: <p>Shop page</p> },
    ],
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

  it('keeps the form when a refresh of my parties fails while it is open, with a note', async () => {
    let connected = true;
    serve(() => {
      if (!connected) throw new TypeError('Failed to fetch');
      return listOf([buildParty({ id: 'p-1', name: 'Lanterns', user_role: 'manager' })])();
    });
    const { queryClient } = renderDialog();
    const dialog = await screen.findByRole('dialog', { name: 'Deploy General Store' });
    expect(await within(dialog).findByRole('combobox', { name: 'Party' })).toBeInTheDocument();
    connected = false;
    await queryClient.refetchQueries({ queryKey: ['parties'] });
    await waitFor(() => expect(within(dialog).getByTestId('refresh-failed-note')).toBeVisible(), {
      timeout: 5_000,
    });
    expect(within(dialog).getByRole('combobox', { name: 'Party' })).toBeInTheDocument();
    expect(within(dialog).queryByText('Unable to load your parties')).not.toBeInTheDocument();
  }, 20_000);

  it('offers to create a party when I manage none', async () => {
    serve(listOf([buildParty({ user_role: 'player' })]));
    renderDialog();
    expect(await screen.findByText(noManagedParties)).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Create a Party' })).toHaveAttribute('href', '/parties/new');
  });

  describe('the plan in the chosen party', () => {
    /** The server's answers to the dialog's questions about the plan in party p-1. */
    function servePlan(answers: { feature: boolean; monthly: boolean }) {
      return mockFetch(({ url, init }) => {
        if (url.includes('/parties?'))
          return listOf([buildParty({ id: 'p-1', name: 'Lanterns', user_role: 'gm' })])();
        const asked = init.body ? JSON.parse(String(init.body)) : {};
        if (url.endsWith('/subscription/check_feature') && asked.party_id === 'p-1')
          return success({ allowed: answers.feature, feature: asked.feature });
        if (url.endsWith('/subscription/check_limit') && asked.party_id === 'p-1') {
          const allowed = asked.resource !== 'shop_deployments_monthly' || answers.monthly;
          return success({
            allowed,
            resource: asked.resource,
            limit: 2,
            used: allowed ? 0 : 2,
            remaining: allowed ? 2 : 0,
            ...(allowed ? {} : { message: 'Your Adventurer plan allows 2 shop deployments a month.' }),
          });
        }
        return failure(404, 'NOT_FOUND', 'Not found');
      });
    }

    it('says a plan without shop deployment up front, with the way to upgrade, and keeps Deploy Shop off', async () => {
      servePlan({ feature: false, monthly: true });
      renderDialog();
      const dialog = await screen.findByRole('dialog', { name: 'Deploy General Store' });
      expect(
        await within(dialog).findByText('Shop deployment is not included in your plan'),
      ).toBeInTheDocument();
      expect(within(dialog).getByRole('link', { name: /upgrade/i })).toHaveAttribute(
        'href',
        '/subscription/upgrade?feature=shops_deployment',
      );
      expect(within(dialog).getByRole('button', { name: 'Deploy Shop' })).toBeDisabled();
    });

    it('says a used-up monthly limit up front in the server’s words', async () => {
      servePlan({ feature: true, monthly: false });
      renderDialog();
      const dialog = await screen.findByRole('dialog', { name: 'Deploy General Store' });
      expect(await within(dialog).findByText('Plan limit reached')).toBeInTheDocument();
      expect(
        within(dialog).getByText('Your Adventurer plan allows 2 shop deployments a month.'),
      ).toBeInTheDocument();
      expect(within(dialog).getByRole('button', { name: 'Deploy Shop' })).toBeDisabled();
    });

    it('leaves Deploy Shop on when the plan there allows it', async () => {
      servePlan({ feature: true, monthly: true });
      renderDialog();
      const dialog = await screen.findByRole('dialog', { name: 'Deploy General Store' });
      await within(dialog).findByRole('combobox', { name: 'Party' });
      await waitFor(() => expect(within(dialog).getByRole('button', { name: 'Deploy Shop' })).toBeEnabled());
      expect(within(dialog).queryByTestId('upgrade-prompt')).not.toBeInTheDocument();
    });
  });

  describe('discount', () => {
    function serveDeploy() {
      return mockFetch(({ url, init }) => {
        if (url.includes('/parties?'))
          return listOf([buildParty({ id: 'p-1', name: 'Lanterns', user_role: 'gm' })])();
        if (init.method === 'POST' && url.endsWith('/shop_instances'))
          return success(buildShopInstance({ id: 'shop-9', name: 'General Store' }), 201);
        return failure(404, 'NOT_FOUND', 'Not found');
      });
    }
    const deploys = (calls: { mock: { calls: unknown[][] } }) =>
      calls.mock.calls.filter(
        ([url, init]) => String(url).endsWith('/shop_instances') && (init as RequestInit).method === 'POST',
      );
    /** The dialog, open and loaded, with its Discount (%) field. */
    async function openWithDiscount() {
      const user = userEvent.setup();
      renderDialog();
      const dialog = await screen.findByRole('dialog', { name: 'Deploy General Store' });
      await within(dialog).findByRole('combobox', { name: 'Party' });
      return { user, dialog, discount: within(dialog).getByRole('textbox', { name: 'Discount (%)' }) };
    }
    /** The discount rate of the one deploy sent. */
    async function deployedDiscountRate(calls: { mock: { calls: unknown[][] } }) {
      await vi.waitFor(() => expect(deploys(calls)).toHaveLength(1));
      const [[, init]] = deploys(calls) as [[string, RequestInit]];
      return JSON.parse(String(init.body)).shop_instance.discount_rate;
    }

    it('keeps a discount above 100 % as typed, says why and deploys nothing', async () => {
      const fetchMock = serveDeploy();
      const { user, dialog, discount } = await openWithDiscount();
      await user.clear(discount);
      await user.type(discount, '150');
      await user.tab();
      // Not clamped to 100 on blur: a shop that gives everything away is never made silently.
      expect(discount).toHaveValue('150');
      expect(discount).toHaveAccessibleDescription(shopMessages.discountRange);
      await user.type(discount, '{Enter}');
      await user.click(within(dialog).getByRole('button', { name: 'Deploy Shop' }));
      expect(deploys(fetchMock)).toHaveLength(0);
      expect(discount).toHaveValue('150');
    });

    it('deploys a deliberate 100 % discount, warning that everything will be free', async () => {
      const fetchMock = serveDeploy();
      const { user, dialog, discount } = await openWithDiscount();
      expect(within(dialog).queryByText(freeShopWarning)).not.toBeInTheDocument();
      await user.clear(discount);
      await user.type(discount, '100');
      expect(discount).toHaveAccessibleDescription(freeShopWarning);
      await user.click(within(dialog).getByRole('button', { name: 'Deploy Shop' }));
      expect(await deployedDiscountRate(fetchMock)).toBe(1);
    });

    it('deploys one shop for two presses of Deploy Shop in the same task (Enter and a tap)', async () => {
      const fetchMock = serveDeploy();
      const { dialog } = await openWithDiscount();
      const submit = within(dialog).getByRole('button', { name: 'Deploy Shop' });
      await waitFor(() => expect(submit).toBeEnabled());
      act(() => {
        submit.click();
        submit.click();
      });
      await vi.waitFor(() => expect(deploys(fetchMock)).toHaveLength(1));
      await new Promise((resolve) => setTimeout(resolve, 50));
      expect(deploys(fetchMock)).toHaveLength(1);
    });

    it('sends a discount to the hundredth of a percent as its exact rate', async () => {
      const fetchMock = serveDeploy();
      const { user, dialog, discount } = await openWithDiscount();
      await user.clear(discount);
      await user.type(discount, '12.345');
      expect(discount).toHaveValue('12.34');
      await user.click(within(dialog).getByRole('button', { name: 'Deploy Shop' }));
      expect(await deployedDiscountRate(fetchMock)).toBe(0.1234);
    });
  });
});
