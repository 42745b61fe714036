import { SimpleGrid, Stack, Text, ThemeIcon, Title } from '@mantine/core';
import {
  IconBackpack,
  IconBolt,
  IconBuildingStore,
  IconDiamond,
  IconListDetails,
  IconUsersGroup,
} from '@tabler/icons-react';
import type { ComponentType } from 'react';

interface Feature {
  icon: ComponentType<{ size?: number; 'aria-hidden'?: boolean | 'true' }>;
  title: string;
  text: string;
}

/** What Haversack does today: nothing here is a promise of something not built (issue 12, item 3). */
const features: Feature[] = [
  {
    icon: IconBackpack,
    title: 'Every character’s inventory',
    text: 'Backpacks, pouches and chests with their weight and slots, coins in five denominations, and the whole SRD item catalogue to pick from.',
  },
  {
    icon: IconUsersGroup,
    title: 'A party stash',
    text: 'One shared container for the whole table. Move items between characters and the stash by dragging, swiping or a transfer queue.',
  },
  {
    icon: IconBuildingStore,
    title: 'Shops',
    text: 'The game master opens a shop for the party; players buy and sell at its prices, and the coins are counted and changed for them.',
  },
  {
    icon: IconDiamond,
    title: 'Loot',
    text: 'Prepare a hoard, reveal it when the party finds it, and let players take items or share it out evenly, by value or at random.',
  },
  {
    icon: IconBolt,
    title: 'Live at the table',
    text: 'Everyone in the party sees a change a moment after it happens, with a notice saying who did it.',
  },
  {
    icon: IconListDetails,
    title: 'A ledger of every move',
    text: 'Each transfer, purchase, sale and share of loot is written down, so “who took the potion?” has an answer.',
  },
];

export function LandingFeatures() {
  return (
    <Stack gap="md" component="section" aria-labelledby="landing-features-heading">
      <Title order={2} id="landing-features-heading">
        What your group gets
      </Title>
      <SimpleGrid cols={{ base: 1, sm: 2, md: 3 }} spacing="lg">
        {features.map((feature) => (
          <Stack key={feature.title} gap="xs">
            <ThemeIcon size={40} radius="md" variant="light" aria-hidden="true">
              <feature.icon size={22} aria-hidden="true" />
            </ThemeIcon>
            <Title order={3} size="h4">
              {feature.title}
            </Title>
            <Text c="dimmed">{feature.text}</Text>
          </Stack>
        ))}
      </SimpleGrid>
    </Stack>
  );
}
