import { Tooltip } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { type ThemeName, useUiStore } from '../stores/ui-store';
import { ThemeToggleButton, themeToggleLabel } from './theme-toggle-button';

/**
 * Switches the colour scheme; `onToggle` lets a signed-in layout save the choice in Preferences. The tooltip
 * is for a pointer that hovers: a tap on a phone counts as hovering until the next tap elsewhere, so it
 * would stay over the header saying what the next tap does.
 */
export function ThemeToggle({ onToggle }: { onToggle?: (theme: ThemeName) => void }) {
  const theme = useUiStore((state) => state.theme);
  const canHover = useMediaQuery('(hover: hover)', true, { getInitialValueInEffect: false });
  return (
    <Tooltip label={themeToggleLabel(theme)} disabled={!canHover}>
      <ThemeToggleButton onToggle={onToggle} />
    </Tooltip>
  );
}
