import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { useGlobalStyles } from '../../../test/global-styles';
import { restoreViewportAfterEach, setViewport } from '../../../test/viewport';
import { renderWithProviders } from '../../inventory/test/inventory-fixtures';
import { buildShopInstance } from '../test/shop-fixtures';
import { ShopInstanceCard } from './shop-card';

describe('ShopInstanceCard', () => {
  restoreViewportAfterEach();

  it('shows a long party name whole, on more lines, where it was cut with an ellipsis nothing could open', () => {
    // Outside sweep: "The Fellowship of the Exceedingly Lon…" on /shops/instances at 375 and 1280 px alike,
    // with no title or other way to read the rest; the party tells apart shops of the same name.
    const party = 'The Fellowship of the Exceedingly Long-Named Lantern of Westmarch';
    useGlobalStyles('Text', 'Group');
    setViewport(375, 812);
    renderWithProviders(
      <ShopInstanceCard shop={buildShopInstance({ party: { id: 'party-1', name: party } })} />,
    );
    const name = within(screen.getByTestId('shop-card')).getByText(party);
    const style = getComputedStyle(name);
    expect(style.whiteSpace).not.toBe('nowrap');
    expect(style.textOverflow).not.toBe('ellipsis');
    expect(style.overflowWrap).toBe('anywhere');
  });
});
