import { Card, SimpleGrid, Skeleton, Stack } from '@mantine/core';

/** spec/02 §9: six skeleton cards while a party grid loads. */
export function PartyCardSkeletons({ count = 6 }: { count?: number }) {
  return (
    <SimpleGrid cols={{ base: 1, sm: 2, lg: 3 }} spacing="md" aria-busy="true" data-testid="party-skeletons">
      {Array.from({ length: count }, (_, index) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: static placeholder list
        <Card key={index} withBorder padding="lg" aria-hidden="true">
          <Stack gap="sm">
            <Skeleton height={20} width="60%" />
            <Skeleton height={12} />
            <Skeleton height={12} width="80%" />
            <Skeleton height={30} width="40%" mt="sm" />
          </Stack>
        </Card>
      ))}
    </SimpleGrid>
  );
}
