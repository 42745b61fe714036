import { Anchor, Group, Text } from '@mantine/core';
import { Link } from 'react-router';

export function SiteFooter() {
  return (
    <Group component="footer" justify="center" gap="md" py="md" px="md">
      <Text size="sm" c="dimmed">
        Haversack
      </Text>
      <Anchor component={Link} to="/about" size="sm" className="haversack-touch-target">
        About and credits
      </Anchor>
    </Group>
  );
}
