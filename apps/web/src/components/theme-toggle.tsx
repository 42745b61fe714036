import { ActionIcon, Tooltip } from '@mantine/core';
import { IconMoon, IconSun } from '@tabler/icons-react';
import { type ThemeName, useUiStore } from '../stores/ui-store';

/** Switches the colour scheme; `onToggle` lets a signed-in layout save the choice in Preferences. */
export function ThemeToggle({ onToggle }: { onToggle?: (theme: ThemeName) => void }) {
  const theme = useUiStore((state) => state.theme);
  const setTheme = useUiStore((state) => state.setTheme);
  const toggleTheme = () => {
    const next = theme === 'dark' ? 'light' : 'dark';
    setTheme(next);
    onToggle?.(next);
  };
  const label = theme === 'dark' ? 'Switch to light theme' : 'Switch to dark theme';
  return (
    <Tooltip label={label}>
      <ActionIcon
        variant="default"
        size="lg"
        onClick={toggleTheme}
        aria-label={label}
        data-testid="theme-toggle"
      >
        {theme === 'dark' ? (
          <IconSun size={18} aria-hidden="true" />
        ) : (
          <IconMoon size={18} aria-hidden="true" />
        )}
      </ActionIcon>
    </Tooltip>
  );
}
