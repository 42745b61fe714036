import { Avatar, Menu, Text, UnstyledButton } from '@mantine/core';
import { IconAdjustments, IconLogout, IconShieldLock, IconUserCircle } from '@tabler/icons-react';
import { type RefObject, useRef, useState } from 'react';
import { Link, useLocation } from 'react-router';
import { displayNameOf, useCurrentUser } from '../../stores/auth-store';
import { useSignOut } from './use-sign-out';

/** The account menu in the header: profile, preferences, admin (for admins) and Sign Out. */
export function UserMenu() {
  const user = useCurrentUser();
  const name = displayNameOf(user);
  const initial = (name || user?.email || '?').charAt(0).toUpperCase();

  const handleSignOut = useSignOut();
  const { pathname } = useLocation();
  const [opened, setOpened] = useState(false);
  const dropdown = useRef<HTMLDivElement>(null);
  // Choosing another page: the menu closes without giving the focus back to its button, and RouteFocus gives
  // it to the new page's heading (data-closes-on-navigation), as after an in-page link; Escape, a click
  // elsewhere, or the page already shown, give it back to the button as before.
  const [leaving, setLeaving] = useState(false);
  const goingTo = (to: string) => () => setLeaving(to !== pathname);

  return (
    <Menu
      position="bottom-end"
      width={220}
      withinPortal
      withInitialFocusPlaceholder={false}
      opened={opened}
      onChange={(next) => {
        setOpened(next);
        if (next) setLeaving(false);
      }}
      returnFocus={!leaving}
    >
      <Menu.Target>
        <UnstyledButton
          aria-label="Account menu"
          data-testid="user-menu-button"
          // ArrowDown opens a menu button's menu on its first entry, as Enter and Space do (the menu button pattern).
          onKeyDown={(event) => {
            if (event.key !== 'ArrowDown' || opened) return;
            event.preventDefault();
            setLeaving(false);
            setOpened(true);
            focusFirstItem(dropdown);
          }}
        >
          <Avatar radius="xl" color="violet" variant="filled" aria-hidden="true">
            {initial}
          </Avatar>
        </UnstyledButton>
      </Menu.Target>
      <Menu.Dropdown ref={dropdown} data-closes-on-navigation>
        <Menu.Label>
          <Text size="sm" fw={600} c="bright" truncate data-testid="user-menu-name">
            {name}
          </Text>
          <Text size="xs" c="dimmed" truncate>
            {user?.email}
          </Text>
        </Menu.Label>
        <Menu.Item
          component={Link}
          to="/profile"
          onClick={goingTo('/profile')}
          leftSection={<IconUserCircle size={16} aria-hidden="true" />}
        >
          Profile
        </Menu.Item>
        <Menu.Item
          component={Link}
          to="/profile/preferences"
          onClick={goingTo('/profile/preferences')}
          leftSection={<IconAdjustments size={16} aria-hidden="true" />}
        >
          Preferences
        </Menu.Item>
        {user?.admin ? (
          <Menu.Item
            component={Link}
            to="/admin"
            onClick={goingTo('/admin')}
            leftSection={<IconShieldLock size={16} aria-hidden="true" />}
          >
            Admin Area
          </Menu.Item>
        ) : null}
        <Menu.Divider />
        <Menu.Item
          leftSection={<IconLogout size={16} aria-hidden="true" />}
          onClick={handleSignOut}
          data-testid="sign-out"
        >
          Sign Out
        </Menu.Item>
      </Menu.Dropdown>
    </Menu>
  );
}

/** The menu's first entry takes the focus once the menu is drawn (a frame or two after it opens). */
function focusFirstItem(dropdown: RefObject<HTMLDivElement | null>, tries = 10) {
  requestAnimationFrame(() => {
    const first = dropdown.current?.querySelector<HTMLElement>('[data-menu-item]');
    if (first) first.focus();
    else if (tries > 0) focusFirstItem(dropdown, tries - 1);
  });
}
