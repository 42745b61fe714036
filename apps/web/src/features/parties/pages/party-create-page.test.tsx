import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { renderRoutes, withUnsavedChangesGuard } from '../../../test/render';
import { mockPlanLimitServer, watchToasts } from '../../subscription/plan-limit-test-server';
import { PartyCreatePage } from './party-create-page';

function renderPage() {
  return renderRoutes(
    withUnsavedChangesGuard([
      { path: '/parties/new', element: <PartyCreatePage /> },
      { path: '/parties', element: <p>Party list</p> },
      { path: '/parties/:id', element: <p>Party page</p> },
    ]),
    '/parties/new',
  );
}

// This page's own toasts from the call on: test files share a worker, and with it their toasts.
const watchPageToasts = () => watchToasts(/part(y|ies) you run/);

const server = (used: number) =>
  mockPlanLimitServer({ resource: 'parties_created', createPath: '/parties', limit: 1, used });

describe('PartyCreatePage at the plan’s limit of parties', { timeout: 30_000 }, () => {
  it('says the limit once, with the way to upgrade, and disables Create Party with that reason', async () => {
    const { posts } = server(1);
    const toasts = watchPageToasts();
    const user = userEvent.setup();
    renderPage();

    const hint = await screen.findByTestId('plan-limit-hint');
    expect(hint).toHaveTextContent('1 of 1 party you run used: your plan has no room for another.');
    expect(screen.getAllByRole('link', { name: 'See upgrade options' })).toHaveLength(1);
    const submit = screen.getByRole('button', { name: 'Create Party' });
    await vi.waitFor(() => expect(submit).toBeDisabled());
    expect(submit).toHaveAccessibleDescription(
      '1 of 1 party you run used: your plan has no room for another. See upgrade options',
    );

    await user.type(screen.getByRole('textbox', { name: /Party Name/ }), 'Lanterns{Enter}');
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(posts()).toEqual([]);
    expect(screen.queryByTestId('upgrade-prompt')).not.toBeInTheDocument();
    expect(toasts()).toEqual([]);
  });

  it('after a refusal on a stale count, says the limit in one toast and then disables the submit', async () => {
    const { refusal } = server(0);
    const toasts = watchPageToasts();
    const user = userEvent.setup();
    renderPage();

    expect(await screen.findByTestId('plan-limit-hint')).toHaveTextContent('0 of 1 party you run used');
    const submit = screen.getByRole('button', { name: 'Create Party' });
    expect(submit).toBeEnabled();
    await user.type(screen.getByRole('textbox', { name: /Party Name/ }), 'Lanterns');
    await user.click(submit);

    await vi.waitFor(() => expect(submit).toBeDisabled());
    expect(screen.getByTestId('plan-limit-hint')).toHaveAttribute('data-full', 'true');
    expect(submit).toHaveAccessibleDescription(
      '1 of 1 party you run used: your plan has no room for another. See upgrade options',
    );
    expect(screen.queryByTestId('upgrade-prompt')).not.toBeInTheDocument();
    expect(toasts()).toEqual([refusal]);
  });
});
