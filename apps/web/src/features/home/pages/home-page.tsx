import { Anchor, Badge, Divider, Group, Paper, Stack, Text, Title } from '@mantine/core';
import { Link } from 'react-router';
import { usePageTitle } from '../../../lib/page-title';
import { LandingActions } from '../components/landing-actions';
import { LandingFeatures } from '../components/landing-features';
import { LandingScreenshots } from '../components/landing-screenshots';

/**
 * /home, the landing page (issue 12): what Haversack is for, real screens, and the way in. Open to
 * everyone; / still redirects as spec/01 §2 says, and /login links here.
 */
export function HomePage() {
  usePageTitle('Home');
  return (
    <Stack gap={48}>
      <Stack gap="md" component="section" aria-labelledby="landing-heading" maw={720}>
        <Badge variant="light" size="lg" w="fit-content">
          For D&amp;D 5e groups
        </Badge>
        <Title order={1} id="landing-heading">
          Haversack: the inventory your whole table shares
        </Title>
        <Text size="lg">
          The companion for tabletop role-playing groups: characters, party inventories and shops in one
          place. Keep track of every character’s gear and coins, share a party stash, run shops and hand out
          loot, and see every change live, on a phone or a laptop.
        </Text>
        <LandingActions />
      </Stack>

      <LandingFeatures />

      <LandingScreenshots />

      <Paper withBorder p="lg" radius="md" component="section" aria-labelledby="landing-plans-heading">
        <Stack gap="sm">
          <Title order={2} size="h3" id="landing-plans-heading">
            Free to start
          </Title>
          <Text>
            A free account holds one character, one party and your own inventory. Paid plans add more
            characters and parties, and let game masters run shops and hand out loot.
          </Text>
          <Group gap="md">
            <Anchor component={Link} to="/subscription/compare">
              Compare plans
            </Anchor>
            <Anchor component={Link} to="/about">
              About Haversack
            </Anchor>
          </Group>
        </Stack>
      </Paper>

      <Divider />

      <Stack gap="sm" align="flex-start" component="section" aria-labelledby="landing-start-heading">
        <Title order={2} size="h3" id="landing-start-heading">
          Ready for the next session?
        </Title>
        <LandingActions />
      </Stack>
    </Stack>
  );
}
