import { Skeleton, Stack, Title, VisuallyHidden } from '@mantine/core';
import { TextSkeleton } from '../../../components/loading';

/** The workspace while its containers load; the heading keeps the page's one h1. */
export function WorkspaceSkeleton({ label, titleOrder = 1 }: { label: string; titleOrder?: 1 | 2 }) {
  return (
    <Stack gap="md" aria-busy="true" data-testid="workspace-loading">
      <Title order={titleOrder}>
        <VisuallyHidden>{label}</VisuallyHidden>
      </Title>
      <Skeleton height={32} width={260} />
      <Skeleton height={40} />
      <TextSkeleton lines={4} />
    </Stack>
  );
}
