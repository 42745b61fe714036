import { Tooltip } from '@mantine/core';
import { type ThemeName, useUiStore } from '../stores/ui-store';
import { ThemeToggleButton, themeToggleLabel } from './theme-toggle-button';

/** Switches the colour scheme; `onToggle` lets a signed-in layout save the choice in Preferences. */
export function ThemeToggle({ onToggle }: { onToggle?: (theme: ThemeName) => void }) {
  const theme = useUiStore((state) => state.theme);
  return (
    <Tooltip label={themeToggleLabel(theme)}>
      <ThemeToggleButton onToggle={onToggle} />
    </Tooltip>
  );
}
