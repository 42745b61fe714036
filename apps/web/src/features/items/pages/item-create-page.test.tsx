import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { renderRoutes, withUnsavedChangesGuard } from '../../../test/render';
import { mockPlanLimitServer, watchToasts } from '../../subscription/plan-limit-test-server';
import { ItemCreatePage } from './item-create-page';

// Mantine's autosizing Textarea listens for font loading, which happy-dom does not provide.
if (!('fonts' in document)) {
  Object.defineProperty(document, 'fonts', { value: new EventTarget() });
}

function renderPage() {
  return renderRoutes(
    withUnsavedChangesGuard([
      { path: '/items/new', element: <ItemCreatePage /> },
      { path: '/items', element: <p>Item list</p> },
      { path: '/items/templates/:id', element: <p>Item template</p> },
    ]),
    '/items/new',
  );
}

// This page's own toasts from the call on: test files share a worker, and with it their toasts.
const watchPageToasts = () => watchToasts(/item template/i);

const server = (used: number) =>
  mockPlanLimitServer({ resource: 'item_templates', createPath: '/item_templates', limit: 20, used });

// Typing into Mantine's inputs is slow under happy-dom on a busy machine.
describe('ItemCreatePage at the plan’s limit of item templates', { timeout: 30_000 }, () => {
  it('says the limit once, with the way to upgrade, and disables Create Item with that reason', async () => {
    const { posts } = server(20);
    const toasts = watchPageToasts();
    const user = userEvent.setup();
    renderPage();

    const hint = await screen.findByTestId('plan-limit-hint');
    expect(hint).toHaveTextContent('20 of 20 item templates used: your plan has no room for another.');
    expect(screen.getAllByRole('link', { name: 'See upgrade options' })).toHaveLength(1);
    const submit = screen.getByRole('button', { name: 'Create Item' });
    await vi.waitFor(() => expect(submit).toBeDisabled());
    expect(submit).toHaveAccessibleDescription(
      '20 of 20 item templates used: your plan has no room for another. See upgrade options',
    );

    await user.type(screen.getByRole('textbox', { name: 'Name' }), 'Rope{Enter}');
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(posts()).toEqual([]);
    expect(screen.queryByTestId('upgrade-prompt')).not.toBeInTheDocument();
    expect(toasts()).toEqual([]);
  });

  it('after a refusal on a stale count, says the limit in one toast and then disables the submit', async () => {
    const { refusal } = server(19);
    const toasts = watchPageToasts();
    const user = userEvent.setup();
    renderPage();

    expect(await screen.findByTestId('plan-limit-hint')).toHaveTextContent('19 of 20 item templates used');
    const submit = screen.getByRole('button', { name: 'Create Item' });
    expect(submit).toBeEnabled();
    await user.type(screen.getByRole('textbox', { name: 'Name' }), 'Rope');
    await user.click(submit);

    await vi.waitFor(() => expect(submit).toBeDisabled());
    expect(screen.getByTestId('plan-limit-hint')).toHaveAttribute('data-full', 'true');
    expect(submit).toHaveAccessibleDescription(
      '20 of 20 item templates used: your plan has no room for another. See upgrade options',
    );
    expect(screen.queryByTestId('upgrade-prompt')).not.toBeInTheDocument();
    expect(toasts()).toEqual([refusal]);
  });
});
