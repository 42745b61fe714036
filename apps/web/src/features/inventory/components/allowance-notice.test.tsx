import { act, screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { mockFetch, success } from '../../../test/fixtures';
import { renderRoutes } from '../../../test/render';
import { actionScopes } from '../api/allowance-api';
import { invalidateContainers } from '../api/inventory-api';
import { buildContainer } from '../test/inventory-fixtures';
import { AllowanceNotice, isRunningLow } from './allowance-notice';

const backpack = buildContainer({ id: 'c-1' });
const stash = buildContainer({
  id: 'c-stash',
  name: 'Party Stash',
  character_id: null,
  party_id: 'p-1',
  owner: { type: 'party', id: 'p-1', name: 'Lanterns' },
});

interface Allowance {
  used: number;
  limit: number | null;
}

/** Answers check_limit per resource from `allowances`, recording which resources and parties were asked. */
function serveAllowances(allowances: Record<string, Allowance>) {
  const asked: Array<{ resource: string; party_id?: string }> = [];
  mockFetch(({ url, init }) => {
    if (!url.endsWith('/subscription/check_limit')) return success(null);
    const body = JSON.parse(String(init.body)) as { resource: string; party_id?: string };
    asked.push(body);
    const { used, limit } = allowances[body.resource] ?? { used: 0, limit: null };
    const remaining = limit === null ? null : Math.max(0, limit - used);
    return success({
      allowed: remaining === null || remaining >= 1,
      resource: body.resource,
      limit,
      used,
      remaining,
      ...(remaining === 0
        ? { message: `Your Free plan allows ${limit} personal inventory actions a month.` }
        : {}),
    });
  });
  return asked;
}

function renderNotice(containers = [backpack], partyId: string | null = null) {
  return renderRoutes(
    [{ path: '/', element: <AllowanceNotice containers={containers} partyId={partyId} /> }],
    '/',
  );
}

describe('AllowanceNotice', () => {
  it('warns once a tenth of the month is left, with the way to an upgrade for that allowance', async () => {
    serveAllowances({ inventory_actions_personal_monthly: { used: 92, limit: 100 } });
    renderNotice();
    expect(
      await screen.findByText(/You have 8 of 100 personal inventory actions left this month\./),
    ).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'See upgrade options' })).toHaveAttribute(
      'href',
      '/subscription/upgrade?resource=inventory_actions_personal_monthly',
    );
  });

  it('says nothing while plenty is left, or on an unlimited plan', async () => {
    const asked = serveAllowances({ inventory_actions_personal_monthly: { used: 89, limit: 100 } });
    renderNotice();
    await waitFor(() => expect(asked).toHaveLength(1));
    expect(screen.queryByTestId('allowance-notice')).not.toBeInTheDocument();

    const unlimited = serveAllowances({});
    renderNotice();
    await waitFor(() => expect(unlimited).toHaveLength(1));
    expect(screen.queryByTestId('allowance-notice')).not.toBeInTheDocument();
  });

  it('says up front, in the server’s words, that the month’s allowance is used up', async () => {
    serveAllowances({ inventory_actions_personal_monthly: { used: 100, limit: 100 } });
    renderNotice();
    expect(await screen.findByText('Plan limit reached')).toBeInTheDocument();
    expect(
      screen.getByText('Your Free plan allows 100 personal inventory actions a month.'),
    ).toBeInTheDocument();
  });

  it('asks about the party’s allowance in the party, for the stash, and only where the user may act', async () => {
    const asked = serveAllowances({ inventory_actions_party_monthly: { used: 195, limit: 200 } });
    renderNotice([backpack, stash], 'p-1');
    expect(
      await screen.findByText(/You have 5 of 200 party inventory actions left this month\./),
    ).toBeInTheDocument();
    expect(asked).toEqual(
      expect.arrayContaining([
        { resource: 'inventory_actions_personal_monthly', party_id: 'p-1' },
        { resource: 'inventory_actions_party_monthly', party_id: 'p-1' },
      ]),
    );
    expect(actionScopes([{ ...stash, can_act: false }])).toEqual([]);
  });

  it('asks again after the user’s own change, so the count follows each move', async () => {
    const allowance = { used: 90, limit: 100 };
    serveAllowances({ inventory_actions_personal_monthly: allowance });
    const { queryClient } = renderNotice();
    expect(
      await screen.findByText(/You have 10 of 100 personal inventory actions left this month\./),
    ).toBeInTheDocument();
    allowance.used = 91;
    await act(() => invalidateContainers(queryClient, ['c-1']));
    expect(
      await screen.findByText(/You have 9 of 100 personal inventory actions left this month\./),
    ).toBeInTheDocument();
  });

  it('runs low at a tenth of the allowance, and at the last action of a tiny one', () => {
    expect(isRunningLow(10, 100)).toBe(true);
    expect(isRunningLow(11, 100)).toBe(false);
    expect(isRunningLow(1, 5)).toBe(true);
    expect(isRunningLow(2, 5)).toBe(false);
  });
});
