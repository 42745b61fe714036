import { Anchor, Paper, Stack, Text, Title } from '@mantine/core';
import { Link } from 'react-router';
import { usePageTitle } from '../lib/page-title';
import { generalMessages } from '../lib/toast';

interface NotAvailableProps {
  /** The page's name, used for its title and heading: "Characters". */
  title: string;
  /** How the sentence names the section: "Characters are". */
  subject: string;
  /** Where to go instead. */
  backTo?: { href: string; label: string };
}

/**
 * An honest placeholder for a section whose features are not built yet: no fake content. These pages are
 * the app's only announcements (the Discord pages, the admin sections the menu lists), so they are where
 * spec/01 §8's "This feature is coming soon!" is said, and nowhere else.
 */
export function NotAvailable({
  title,
  subject,
  backTo = { href: '/dashboard', label: 'Back to dashboard' },
}: NotAvailableProps) {
  usePageTitle(title);
  return (
    <Stack gap="md" maw={720}>
      <Title order={1}>{title}</Title>
      <Paper withBorder p="lg" data-testid="not-available">
        <Stack gap="sm">
          <Text fw={600}>{generalMessages.comingSoon}</Text>
          <Text>{subject} not available yet — this part of Haversack is still being built.</Text>
          <Anchor component={Link} to={backTo.href}>
            {backTo.label}
          </Anchor>
        </Stack>
      </Paper>
    </Stack>
  );
}
