import { Paper, Stack, Text, Title } from '@mantine/core';

/** An honest panel for a party tab whose feature has its own issue and is not built yet. */
export function UpcomingTabPanel({ title, feature }: { title: string; feature: string }) {
  return (
    <Paper withBorder p="lg" data-testid="upcoming-tab">
      <Stack gap="xs">
        <Title order={2} size="h4">
          {title}
        </Title>
        <Text c="dimmed" size="sm">
          This tab arrives with the {feature} feature, which is still being built.
        </Text>
      </Stack>
    </Paper>
  );
}
