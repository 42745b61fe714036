import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { mockFetch, success } from '../../../test/fixtures';
import { renderWithProviders } from '../../inventory/test/inventory-fixtures';
import { buildCurrentSubscription } from '../subscription-fixtures';
import { PlanLimitHint } from './plan-limit-hint';

function renderHint(tier: 'tier_free' | 'tier_3', characters: number) {
  mockFetch(() => success(buildCurrentSubscription({ tier, used: { characters } })));
  renderWithProviders(<PlanLimitHint resource="characters" />);
}

describe('PlanLimitHint', () => {
  it('says "1 of 1 character used" before the form, with the way to upgrade when full', async () => {
    renderHint('tier_free', 1);
    const hint = await screen.findByTestId('plan-limit-hint');
    expect(hint).toHaveTextContent('1 of 1 character used: your plan has no room for another.');
    expect(screen.getByRole('link', { name: 'See upgrade options' })).toHaveAttribute(
      'href',
      '/subscription/upgrade?resource=characters',
    );
  });

  it('over the limit after a downgrade, says what is kept and what the plan allows, not "10 of 1 used"', async () => {
    renderHint('tier_free', 10);
    const hint = await screen.findByTestId('plan-limit-hint');
    expect(hint).toHaveTextContent(
      'You have 10 characters; your plan allows 1, so it has no room for another.',
    );
    expect(hint).toHaveAttribute('data-full', 'true');
    expect(screen.getByRole('link', { name: 'See upgrade options' })).toBeInTheDocument();
  });

  it('counts quietly while there is room', async () => {
    renderHint('tier_free', 0);
    expect(await screen.findByTestId('plan-limit-hint')).toHaveTextContent('0 of 1 character used');
    expect(screen.queryByRole('link', { name: 'See upgrade options' })).not.toBeInTheDocument();
  });

  it('says the plan does not include them, with the way to upgrade, where its limit is none', async () => {
    mockFetch(() => success(buildCurrentSubscription({ tier: 'tier_free' })));
    renderWithProviders(<PlanLimitHint resource="shop_templates" />);
    const hint = await screen.findByTestId('plan-limit-hint');
    expect(hint).toHaveTextContent(/^Your plan does not include shop templates\.See upgrade options$/);
    expect(screen.getByRole('link', { name: 'See upgrade options' })).toBeInTheDocument();
  });

  it('names what is kept where the plan no longer includes them', async () => {
    mockFetch(() => success(buildCurrentSubscription({ tier: 'tier_free', used: { shop_templates: 3 } })));
    renderWithProviders(<PlanLimitHint resource="shop_templates" />);
    expect(await screen.findByTestId('plan-limit-hint')).toHaveTextContent(
      'Your plan does not include shop templates. You keep the 3 shop templates you have.',
    );
  });

  it('says nothing on an unlimited plan', async () => {
    renderHint('tier_3', 40);
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(screen.queryByTestId('plan-limit-hint')).not.toBeInTheDocument();
  });
});
