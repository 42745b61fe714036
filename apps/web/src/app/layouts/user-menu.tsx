import { Avatar, Menu, Text, UnstyledButton } from '@mantine/core';
import { IconAdjustments, IconLogout, IconShieldLock, IconUserCircle } from '@tabler/icons-react';
import { Link } from 'react-router';
import { displayNameOf, useCurrentUser } from '../../stores/auth-store';
import { useSignOut } from './use-sign-out';

/** The account menu in the header: profile, preferences, admin (for admins) and Sign Out. */
export function UserMenu() {
  const user = useCurrentUser();
  const name = displayNameOf(user);
  const initial = (name || user?.email || '?').charAt(0).toUpperCase();

  const handleSignOut = useSignOut();

  return (
    <Menu position="bottom-end" width={220} withinPortal withInitialFocusPlaceholder={false}>
      <Menu.Target>
        <UnstyledButton aria-label="Account menu" data-testid="user-menu-button">
          <Avatar radius="xl" color="violet" variant="filled" aria-hidden="true">
            {initial}
          </Avatar>
        </UnstyledButton>
      </Menu.Target>
      <Menu.Dropdown>
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
          leftSection={<IconUserCircle size={16} aria-hidden="true" />}
        >
          Profile
        </Menu.Item>
        <Menu.Item
          component={Link}
          to="/profile/preferences"
          leftSection={<IconAdjustments size={16} aria-hidden="true" />}
        >
          Preferences
        </Menu.Item>
        {user?.admin ? (
          <Menu.Item
            component={Link}
            to="/admin"
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
