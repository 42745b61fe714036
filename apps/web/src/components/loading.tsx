import { Center, Loader, Skeleton, Stack, Text } from '@mantine/core';

const spinnerSizes = { sm: 'sm', md: 'md', lg: 'xl' } as const;

/** spec/01 §2 spinner in sizes sm, md, lg. */
export function Spinner({ size = 'md', label = 'Loading' }: { size?: 'sm' | 'md' | 'lg'; label?: string }) {
  return <Loader size={spinnerSizes[size]} role="status" aria-label={label} data-testid="spinner" />;
}

const lineHeights = { tight: 12, normal: 16, relaxed: 22 } as const;
const lineGaps = { tight: 6, normal: 10, relaxed: 14 } as const;

/** spec/01 §2 text skeleton with line heights tight, normal and relaxed. */
export function TextSkeleton({
  lines = 3,
  lineHeight = 'normal',
}: {
  lines?: number;
  lineHeight?: 'tight' | 'normal' | 'relaxed';
}) {
  return (
    <Stack gap={lineGaps[lineHeight]} aria-hidden="true" data-testid="text-skeleton">
      {Array.from({ length: lines }, (_, index) => (
        // Skeleton lines have no identity beyond their position.
        // biome-ignore lint/suspicious/noArrayIndexKey: static placeholder list
        <Skeleton key={index} height={lineHeights[lineHeight]} width={index === lines - 1 ? '70%' : '100%'} />
      ))}
    </Stack>
  );
}

/** A full-screen loader with a visible message ("Checking authentication..."). */
export function FullPageLoader({ label }: { label: string }) {
  return (
    <Center mih="100vh" p="md" component="main">
      <Stack align="center" gap="sm" role="status" aria-live="polite">
        <Loader size="lg" aria-hidden="true" />
        <Text>{label}</Text>
      </Stack>
    </Center>
  );
}
