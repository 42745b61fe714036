import { Button, Card, Stack, Title } from '@mantine/core';
import { Link } from 'react-router';

/** Dashboard: the next steps a player or GM most often takes. */
export function QuickActionsCard() {
  return (
    <Card
      withBorder
      padding="lg"
      component="section"
      aria-labelledby="dash-quick"
      data-testid="dashboard-quick-actions"
    >
      <Stack gap="sm">
        <Title order={2} size="h4" id="dash-quick">
          Quick Actions
        </Title>
        <Button component={Link} to="/characters/new" variant="light">
          New Character
        </Button>
        <Button component={Link} to="/parties/new" variant="light">
          Create a Party
        </Button>
        <Button component={Link} to="/parties/join" variant="light">
          Join a Party
        </Button>
      </Stack>
    </Card>
  );
}
