import { Button } from '@mantine/core';
import { useDisclosure, useMediaQuery } from '@mantine/hooks';
import { IconAdjustmentsHorizontal } from '@tabler/icons-react';

/**
 * A list's filters on a phone, as /marketplace has them: the search and the sort stay above the results and
 * the other filters fold away until asked for. At 375 px the seven or eight fields of the shop and loot
 * template lists stood a whole screen above the first card. `shown` says whether the folding filters are
 * drawn (always, wider than a phone); they stay in the page while folded, so their values are kept.
 */
export function useFoldedFilters() {
  const phone = useMediaQuery('(max-width: 47.99em)') === true;
  const [unfolded, { toggle }] = useDisclosure(false);
  return { phone, unfolded, toggle, shown: !phone || unfolded };
}

/** "More filters" / "Fewer filters", with how many of the folded filters are on, so none is on unseen. */
export function MoreFiltersButton({
  unfolded,
  activeCount,
  onToggle,
}: {
  unfolded: boolean;
  activeCount: number;
  onToggle: () => void;
}) {
  return (
    <Button
      variant="subtle"
      size="compact-sm"
      justify="flex-start"
      leftSection={<IconAdjustmentsHorizontal size={16} aria-hidden="true" />}
      onClick={onToggle}
      aria-expanded={unfolded}
    >
      {unfolded ? 'Fewer filters' : 'More filters'}
      {activeCount > 0 ? ` (${activeCount} on)` : ''}
    </Button>
  );
}
