import { Alert, Stack, Text } from '@mantine/core';
import { IconAlertTriangle, IconInfoCircle } from '@tabler/icons-react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { activeAnnouncementsQuery, announcementKeys, dismissAnnouncement } from '../api/announcements-api';

const colors = { info: 'blue', warning: 'yellow', critical: 'red' } as const;

/**
 * Issue 15: the staff's announcements, above every signed-in page for their period. Closing one hides
 * it at once and for good on every device (the dismissal is stored on the server). A failed load shows
 * nothing: a banner is never worth an error on every page.
 */
export function AnnouncementBanners() {
  const queryClient = useQueryClient();
  const query = useQuery(activeAnnouncementsQuery());
  const dismiss = useMutation({
    mutationFn: dismissAnnouncement,
    onMutate: (id) => {
      queryClient.setQueryData(activeAnnouncementsQuery().queryKey, (current) =>
        current?.filter((a) => a.id !== id),
      );
    },
    onSettled: () => void queryClient.invalidateQueries({ queryKey: announcementKeys.active }),
  });
  if (!query.data || query.data.length === 0) return null;
  return (
    <Stack gap="xs" mb="md" role="region" aria-label="Announcements">
      {query.data.map((announcement) => (
        <Alert
          key={announcement.id}
          color={colors[announcement.level]}
          variant="light"
          title={announcement.title}
          icon={
            announcement.level === 'info' ? (
              <IconInfoCircle aria-hidden="true" />
            ) : (
              <IconAlertTriangle aria-hidden="true" />
            )
          }
          withCloseButton
          closeButtonLabel={`Dismiss announcement: ${announcement.title}`}
          onClose={() => dismiss.mutate(announcement.id)}
          data-testid="announcement-banner"
        >
          {announcement.body ? (
            <Text size="sm" style={{ whiteSpace: 'pre-wrap' }}>
              {announcement.body}
            </Text>
          ) : null}
        </Alert>
      ))}
    </Stack>
  );
}
