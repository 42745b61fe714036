import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { buildItem, renderWithProviders } from '../test/inventory-fixtures';
import { ItemFacts } from './item-facts';

describe('ItemFacts (issue 12 §6)', () => {
  it('names tags as people read them, each once, never as slugs or "category:" tags', () => {
    const tags = ['adventuring-gear', 'category:adventuring-gear', 'standard-gear', 'consumable'];
    renderWithProviders(
      <ItemFacts
        item={buildItem({
          tags,
          item_template: { name: 'Rope', stack_size: 1, tags, metadata: { rarity: 'very rare' }, coin: null },
        })}
      />,
    );
    const group = screen.getByRole('group', { name: 'Tags' });
    expect(
      within(group)
        .getAllByText(/./)
        .map((node) => node.textContent),
    ).toEqual(['Adventuring gear', 'Standard gear', 'Consumable']);
    expect(screen.queryByText(/category:/i)).not.toBeInTheDocument();
    expect(screen.getByText('Very rare').closest('[data-rarity]')).toHaveAttribute(
      'data-rarity',
      'very rare',
    );
    expect(document.querySelector('svg[data-icon]')).toHaveAttribute('data-icon', 'knapsack');
  });

  it('never gives a total that contradicts its each: one charm of 0.25 lb is 0.25 lb in all', () => {
    renderWithProviders(<ItemFacts item={buildItem({ quantity: 1, weight: 0.25, totalWeight: 0.3 })} />);
    expect(screen.getByText('Weight each').nextSibling).toHaveTextContent('0.25 lbs');
    expect(screen.getByText('Total weight').nextSibling).toHaveTextContent('0.25 lbs');
  });

  it('keeps one decimal for a total in tenths', () => {
    renderWithProviders(<ItemFacts item={buildItem({ quantity: 20, weight: 0.05, totalWeight: 1 })} />);
    expect(screen.getByText('Total weight').nextSibling).toHaveTextContent('1.0 lb');
  });

  it('gives each and total with the same decimals, and values with thousands grouped', () => {
    renderWithProviders(
      <ItemFacts
        item={buildItem({
          quantity: 1,
          weight: 3,
          totalWeight: 3,
          value: 900_000,
          value_cp: 90_000_000,
          totalValue: 900_000,
          currency: 'gp',
        })}
      />,
    );
    expect(screen.getByText('Weight each').nextSibling).toHaveTextContent(/^3\.0 lbs$/);
    expect(screen.getByText('Total weight').nextSibling).toHaveTextContent(/^3\.0 lbs$/);
    expect(screen.getByText('Value each').nextSibling).toHaveTextContent(/^900,000 gp$/);
    expect(screen.getByText('Total value').nextSibling).toHaveTextContent(/^900,000 gp$/);
  });

  it('says "Unpriced" for an SRD magic item the SRD gives no price, and its own price once it has one', () => {
    const template = {
      name: 'Rope of Climbing',
      stack_size: 1,
      tags: [],
      metadata: { priced: false },
      coin: null,
    };
    const { unmount } = renderWithProviders(
      <ItemFacts item={buildItem({ value: 0, value_cp: 0, currency: 'gp', item_template: template })} />,
    );
    expect(screen.getByText('Value each').nextSibling).toHaveTextContent(/^Unpriced$/);
    expect(screen.getByText('Total value').nextSibling).toHaveTextContent(/^Unpriced$/);
    unmount();

    renderWithProviders(
      <ItemFacts
        item={buildItem({
          quantity: 2,
          value: 50,
          value_cp: 5000,
          currency: 'gp',
          instance_data: { value_override: 50 },
          item_template: template,
        })}
      />,
    );
    expect(screen.getByText('Value each').nextSibling).toHaveTextContent('50 gp');
    expect(screen.getByText('Total value').nextSibling).toHaveTextContent('100 gp');
  });
});
