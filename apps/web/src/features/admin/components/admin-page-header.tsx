import { Stack, Text, Title } from '@mantine/core';
import type { ReactNode } from 'react';

/** The title and one line of purpose every admin page opens with. */
export function AdminPageHeader({ title, description }: { title: string; description: ReactNode }) {
  return (
    <Stack gap={4}>
      <Title order={1}>{title}</Title>
      <Text c="dimmed">{description}</Text>
    </Stack>
  );
}
