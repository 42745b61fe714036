import type { TierIdentifier, UsageResource } from '@haversack/contracts';
import { act, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { RouteObject } from 'react-router';
import { describe, expect, it, vi } from 'vitest';
import { renderRoutes, withUnsavedChangesGuard } from '../../test/render';
import { mockPlanLimitServer, watchToasts } from './plan-limit-test-server';

/** A create page and what its plan limit looks like there. */
export interface PlanLimitPage {
  /** "ShopTemplateCreatePage at the plan’s limit of shop templates". */
  title: string;
  /** The page's route first, then where it goes after a create or a cancel. */
  routes: RouteObject[];
  resource: UsageResource;
  createPath: string;
  limit: number;
  tier?: TierIdentifier;
  /** "shop templates", "party you run": how the hint names the resource. */
  label: string;
  /** Matches this page's own toasts (test files share a worker, and with it their toasts). */
  toasts: RegExp;
  submit: string;
  nameField: string | RegExp;
  name: string;
}

/**
 * The two tests every create page with a plan limit passes: at the limit it says so once, with the way to
 * upgrade, and its submit is disabled with that reason; after a refusal on a stale count, one toast, then
 * the disabled submit.
 */
export function describePlanLimitPage(page: PlanLimitPage) {
  const path = String(page.routes[0]?.path);
  const renderPage = () => renderRoutes(withUnsavedChangesGuard(page.routes), path);
  const server = (used: number) =>
    mockPlanLimitServer({
      resource: page.resource,
      createPath: page.createPath,
      limit: page.limit,
      used,
      ...(page.tier ? { tier: page.tier } : {}),
    });
  const full = `${page.limit} of ${page.limit} ${page.label} used: your plan has no room for another.`;

  // Typing into Mantine's inputs is slow under happy-dom on a busy machine.
  describe(page.title, { timeout: 30_000 }, () => {
    it(`says the limit once, with the way to upgrade, and disables ${page.submit} with that reason`, async () => {
      const { posts } = server(page.limit);
      const toasts = watchToasts(page.toasts);
      const user = userEvent.setup();
      renderPage();

      const hint = await screen.findByTestId('plan-limit-hint');
      expect(hint).toHaveTextContent(full);
      expect(screen.getAllByRole('link', { name: 'See upgrade options' })).toHaveLength(1);
      const submit = screen.getByRole('button', { name: page.submit });
      await vi.waitFor(() => expect(submit).toBeDisabled());
      expect(submit).toHaveAccessibleDescription(`${full} See upgrade options`);

      await user.type(screen.getByRole('textbox', { name: page.nameField }), `${page.name}{Enter}`);
      await new Promise((resolve) => setTimeout(resolve, 50));
      expect(posts()).toEqual([]);
      expect(screen.queryByTestId('upgrade-prompt')).not.toBeInTheDocument();
      expect(toasts()).toEqual([]);
    });

    it('after a refusal on a stale count, says the limit in one toast and then disables the submit', async () => {
      const { refusal } = server(page.limit - 1);
      const toasts = watchToasts(page.toasts);
      const user = userEvent.setup();
      renderPage();

      expect(await screen.findByTestId('plan-limit-hint')).toHaveTextContent(
        `${page.limit - 1} of ${page.limit} ${page.label} used`,
      );
      const submit = screen.getByRole('button', { name: page.submit });
      expect(submit).toBeEnabled();
      await user.type(screen.getByRole('textbox', { name: page.nameField }), page.name);
      await user.click(submit);

      await vi.waitFor(() => expect(submit).toBeDisabled());
      expect(screen.getByTestId('plan-limit-hint')).toHaveAttribute('data-full', 'true');
      expect(submit).toHaveAccessibleDescription(`${full} See upgrade options`);
      expect(screen.queryByTestId('upgrade-prompt')).not.toBeInTheDocument();
      expect(toasts()).toEqual([refusal]);
    });

    it(`sends one create for two presses of ${page.submit} in the same task (Enter and a tap)`, async () => {
      const { posts } = server(page.limit - 1);
      const user = userEvent.setup();
      renderPage();
      await screen.findByTestId('plan-limit-hint');
      await user.type(screen.getByRole('textbox', { name: page.nameField }), page.name);
      const submit = screen.getByRole('button', { name: page.submit });
      act(() => {
        submit.click();
        submit.click();
      });
      await vi.waitFor(() => expect(posts()).toHaveLength(1));
      await new Promise((resolve) => setTimeout(resolve, 50));
      expect(posts()).toHaveLength(1);
    });
  });
}
