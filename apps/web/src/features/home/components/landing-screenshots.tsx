import { Image, Paper, SimpleGrid, Stack, Text, Title } from '@mantine/core';

interface Screenshot {
  src: string;
  width: number;
  height: number;
  alt: string;
  caption: string;
}

/** Real screens of Haversack, taken by the end-to-end tests (public/landing; lossless WebP, a third of the PNGs). */
const wide: Screenshot[] = [
  {
    src: '/landing/party-desktop.webp',
    width: 1280,
    height: 800,
    alt: 'A party page on a desktop: the Loot tab shows a hidden chest of six items worth 1,215 gp, with Reveal and Delete buttons, and two members online with real-time updates active.',
    caption: 'The game master’s view of a party, with who is online.',
  },
  {
    src: '/landing/loot-distribution-desktop.webp',
    width: 1280,
    height: 800,
    alt: 'The Distribute dialog for a sunken chest: three characters ticked, an even split chosen, and a preview of what each character would receive before anything moves.',
    caption: 'Share a hoard out evenly, by value or at random, with a preview first.',
  },
];

const phone: Screenshot = {
  src: '/landing/inventory-phone.webp',
  width: 375,
  height: 877,
  alt: 'A character’s inventory on a phone: the loot of a sunken chest listed with weights, values and quantities, and a transfer queue at the bottom.',
  caption: 'On a phone at the table: swipe an item to move it.',
};

function Shot({ shot, maw }: { shot: Screenshot; maw?: number }) {
  return (
    <Stack gap={6} component="figure" m={0} maw={maw}>
      <Paper withBorder radius="md" style={{ overflow: 'hidden' }}>
        <Image
          src={shot.src}
          width={shot.width}
          height={shot.height}
          alt={shot.alt}
          loading="lazy"
          decoding="async"
          style={{ width: '100%', height: 'auto', display: 'block' }}
        />
      </Paper>
      <Text component="figcaption" size="sm" c="dimmed">
        {shot.caption}
      </Text>
    </Stack>
  );
}

export function LandingScreenshots() {
  return (
    <Stack gap="md" component="section" aria-labelledby="landing-screens-heading">
      <Title order={2} id="landing-screens-heading">
        See it in use
      </Title>
      <SimpleGrid cols={{ base: 1, sm: 3 }} spacing="lg">
        <Stack gap="lg" className="haversack-landing-wide">
          {wide.map((shot) => (
            <Shot key={shot.src} shot={shot} />
          ))}
        </Stack>
        <Shot shot={phone} maw={320} />
      </SimpleGrid>
    </Stack>
  );
}
