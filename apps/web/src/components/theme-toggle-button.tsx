import { ActionIcon } from '@mantine/core';
import { IconMoon, IconSun } from '@tabler/icons-react';
import type { ComponentPropsWithRef } from 'react';
import { type ThemeName, useUiStore } from '../stores/ui-store';

/**
 * The colour scheme switch itself, named by its label. The sign-in pages use it bare, with the
 * browser's own tooltip (`title`): Mantine's Tooltip would bring floating-ui into their first load
 * (issue 13 §1). Signed in, ThemeToggle wraps it in a Tooltip.
 */
export function ThemeToggleButton({
  onToggle,
  withTitle = false,
  ...rest
}: {
  onToggle?: (theme: ThemeName) => void;
  withTitle?: boolean;
  // A Tooltip around it hands down its ref and pointer and focus handlers.
} & Omit<ComponentPropsWithRef<'button'>, 'onClick' | 'onToggle' | 'children'>) {
  const theme = useUiStore((state) => state.theme);
  const setTheme = useUiStore((state) => state.setTheme);
  const toggleTheme = () => {
    const next = theme === 'dark' ? 'light' : 'dark';
    setTheme(next);
    onToggle?.(next);
  };
  const label = themeToggleLabel(theme);
  return (
    <ActionIcon
      {...rest}
      variant="default"
      size="lg"
      onClick={toggleTheme}
      aria-label={label}
      title={withTitle ? label : undefined}
      data-testid="theme-toggle"
    >
      {theme === 'dark' ? (
        <IconSun size={18} aria-hidden="true" />
      ) : (
        <IconMoon size={18} aria-hidden="true" />
      )}
    </ActionIcon>
  );
}

export const themeToggleLabel = (theme: ThemeName) =>
  theme === 'dark' ? 'Switch to light theme' : 'Switch to dark theme';
