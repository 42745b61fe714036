import { Group, Skeleton, Stack, Title, VisuallyHidden } from '@mantine/core';
import { TextSkeleton } from '../../../components/loading';
import { workspaceTitle } from './workspace-top-bar';

/**
 * The workspace while its containers load; the heading keeps the page's one h1. It shows the workspace's
 * title where the loaded page shows it, so the page's largest text is drawn at once (issue 13 §1).
 */
export function WorkspaceSkeleton({ label, titleOrder = 1 }: { label: string; titleOrder?: 1 | 2 }) {
  return (
    <Stack gap="md" aria-busy="true" data-testid="workspace-loading">
      <Group gap="xs" wrap="nowrap">
        <Skeleton height={34} width={34} radius="sm" />
        <Stack gap={4}>
          <Title order={titleOrder} size={titleOrder === 1 ? 'h2' : 'h3'}>
            <span aria-hidden="true">{workspaceTitle}</span>
            <VisuallyHidden>{label}</VisuallyHidden>
          </Title>
          <Skeleton height={16} width={120} />
        </Stack>
      </Group>
      <Skeleton height={40} />
      <TextSkeleton lines={4} />
    </Stack>
  );
}
