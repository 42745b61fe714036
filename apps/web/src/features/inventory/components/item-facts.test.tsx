import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
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

describe('ItemFacts: the description', () => {
  afterEach(() => vi.restoreAllMocks());
  const rope = buildItem({ name: 'Rope', item_template_id: 'rope-template' });

  it("shows the template's description, and a link to the template's page when the viewer may open it", () => {
    renderWithProviders(
      <ItemFacts
        item={rope}
        about={{ description: 'Rope has 2 hit points.', templateId: 'rope-template' }}
      />,
    );
    expect(screen.getByText('Rope has 2 hit points.')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'View template' })).toHaveAttribute(
      'href',
      '/items/templates/rope-template',
    );
  });

  it("prefers the item's own description, and offers no link to a page the viewer may not open", () => {
    renderWithProviders(
      <ItemFacts
        item={{ ...rope, instance_data: { description_override: 'Knotted every foot.' } }}
        about={{ description: 'Rope has 2 hit points.', templateId: null }}
      />,
    );
    expect(screen.getByText('Knotted every foot.')).toBeInTheDocument();
    expect(screen.queryByText('Rope has 2 hit points.')).not.toBeInTheDocument();
    expect(screen.queryByRole('link', { name: 'View template' })).not.toBeInTheDocument();
  });

  it('clamps a long description, with Show more and Show less', async () => {
    // happy-dom lays nothing out: the clamped text is said to be taller than its box.
    vi.spyOn(HTMLElement.prototype, 'scrollHeight', 'get').mockReturnValue(400);
    vi.spyOn(HTMLElement.prototype, 'clientHeight', 'get').mockReturnValue(120);
    renderWithProviders(
      <ItemFacts item={rope} about={{ description: 'A very long text. '.repeat(60), templateId: null }} />,
    );
    const more = await screen.findByRole('button', { name: 'Show more' });
    expect(more).toHaveAttribute('aria-expanded', 'false');
    const text = screen.getByTestId('item-description');
    expect(more).toHaveAttribute('aria-controls', text.id);
    expect(text).toHaveAttribute('data-clamped', 'true');
    await userEvent.click(more);
    expect(screen.getByRole('button', { name: 'Show less' })).toHaveAttribute('aria-expanded', 'true');
    expect(text).toHaveAttribute('data-clamped', 'false');
  });

  it('offers no Show more for a description that fits', () => {
    renderWithProviders(<ItemFacts item={rope} about={{ description: 'Short.', templateId: null }} />);
    expect(screen.getByText('Short.')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Show more' })).not.toBeInTheDocument();
  });
});
