import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { renderRoutes, withUnsavedChangesGuard } from '../../../test/render';
import { mockPlanLimitServer, watchToasts } from '../../subscription/plan-limit-test-server';
import { ShopTemplateCreatePage } from './shop-template-create-page';

// Mantine's autosizing Textarea listens for font loading, which happy-dom does not provide.
if (!('fonts' in document)) {
  Object.defineProperty(document, 'fonts', { value: new EventTarget() });
}

function renderPage() {
  return renderRoutes(
    withUnsavedChangesGuard([
      { path: '/shops/templates/new', element: <ShopTemplateCreatePage /> },
      { path: '/shops/templates', element: <p>Shop templates</p> },
      { path: '/shops/templates/:id/inventory', element: <p>Stock the shop</p> },
    ]),
    '/shops/templates/new',
  );
}

// This page's own toasts from the call on: test files share a worker, and with it their toasts.
const watchPageToasts = () => watchToasts(/shop template/i);

const server = (used: number) =>
  mockPlanLimitServer({
    resource: 'shop_templates',
    createPath: '/shop_templates',
    limit: 10,
    used,
    tier: 'tier_1',
  });

// Typing into Mantine's inputs is slow under happy-dom on a busy machine.
describe('ShopTemplateCreatePage at the plan’s limit of shop templates', { timeout: 30_000 }, () => {
  it('says the limit once, with the way to upgrade, and disables Create Shop with that reason', async () => {
    const { posts } = server(10);
    const toasts = watchPageToasts();
    const user = userEvent.setup();
    renderPage();

    const hint = await screen.findByTestId('plan-limit-hint');
    expect(hint).toHaveTextContent('10 of 10 shop templates used: your plan has no room for another.');
    expect(screen.getAllByRole('link', { name: 'See upgrade options' })).toHaveLength(1);
    const submit = screen.getByRole('button', { name: 'Create Shop' });
    await vi.waitFor(() => expect(submit).toBeDisabled());
    expect(submit).toHaveAccessibleDescription(
      '10 of 10 shop templates used: your plan has no room for another. See upgrade options',
    );

    await user.type(screen.getByRole('textbox', { name: 'Shop name' }), 'Marta’s{Enter}');
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(posts()).toEqual([]);
    expect(screen.queryByTestId('upgrade-prompt')).not.toBeInTheDocument();
    expect(toasts()).toEqual([]);
  });

  it('after a refusal on a stale count, says the limit in one toast and then disables the submit', async () => {
    const { refusal } = server(9);
    const toasts = watchPageToasts();
    const user = userEvent.setup();
    renderPage();

    expect(await screen.findByTestId('plan-limit-hint')).toHaveTextContent('9 of 10 shop templates used');
    const submit = screen.getByRole('button', { name: 'Create Shop' });
    expect(submit).toBeEnabled();
    await user.type(screen.getByRole('textbox', { name: 'Shop name' }), 'Marta’s');
    await user.click(submit);

    await vi.waitFor(() => expect(submit).toBeDisabled());
    expect(screen.getByTestId('plan-limit-hint')).toHaveAttribute('data-full', 'true');
    expect(submit).toHaveAccessibleDescription(
      '10 of 10 shop templates used: your plan has no room for another. See upgrade options',
    );
    expect(screen.queryByTestId('upgrade-prompt')).not.toBeInTheDocument();
    expect(toasts()).toEqual([refusal]);
  });
});
