import type { ComboboxProps } from '@mantine/core';

/**
 * The option list of a Select in the item's detail: the phone's bottom sheet (a fixed Drawer) or the
 * desktop modal. The list is positioned `fixed`, in the viewport as the sheet is. Positioned `absolute`
 * in the page, its first placement could reach past the page's right edge; a phone then widens its layout
 * viewport to fit (375 → 531 px), which moves and widens the fixed sheet, the list is placed again and
 * the page narrows back: the sheet and the list flickered without end and no option could be tapped. A
 * fixed box never widens the page.
 */
export const sheetComboboxProps: ComboboxProps = { withinPortal: true, floatingStrategy: 'fixed' };
