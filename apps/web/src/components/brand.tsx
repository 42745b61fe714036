import { Group, Text, ThemeIcon, UnstyledButton } from '@mantine/core';
import { IconBackpack } from '@tabler/icons-react';
import { Link } from 'react-router';

/** The Haversack wordmark, linking home. Not a heading: each page owns its single h1. */
export function Brand({ to = '/' }: { to?: string }) {
  return (
    <UnstyledButton component={Link} to={to} aria-label="Haversack home">
      <Group gap={8} wrap="nowrap">
        <ThemeIcon variant="filled" size="md" radius="md" aria-hidden="true">
          <IconBackpack size={18} />
        </ThemeIcon>
        <Text fw={800} size="lg" className="haversack-wordmark">
          Haversack
        </Text>
      </Group>
    </UnstyledButton>
  );
}
