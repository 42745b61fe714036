import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { renderWithProviders } from '../../inventory/test/inventory-fixtures';
import { PartyFacts } from './party-facts';

describe('PartyFacts', () => {
  it('keeps its icons whole beside a long game system or setting, the text wrapping instead', () => {
    // Review (content): beside a 200-letter setting the dice and map icons shrank to dots.
    const { container } = renderWithProviders(
      <PartyFacts gameSystem={'G'.repeat(60)} setting={'X'.repeat(200)} memberCount={3} />,
    );
    const icons = container.querySelectorAll('svg');
    expect(icons).toHaveLength(3);
    for (const icon of icons) expect(icon).toHaveStyle({ flexShrink: '0' });
    for (const text of ['G'.repeat(60), 'X'.repeat(200), '3 members'])
      expect(screen.getByText(text)).toHaveStyle({ minWidth: '0' });
  });
});
