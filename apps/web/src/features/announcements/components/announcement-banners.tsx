import type { Announcement } from '@haversack/contracts';
import { Alert, Button, Stack, Text, useComputedColorScheme } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { IconAlertTriangle, IconInfoCircle } from '@tabler/icons-react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useId, useLayoutEffect, useRef } from 'react';
import { LinkedText } from '../../../components/linked-text';
import { activeAnnouncementsQuery, announcementKeys, dismissAnnouncement } from '../api/announcements-api';
import { darkBannerVars } from './banner-colors';

const colors = { info: 'blue', warning: 'yellow', critical: 'red' } as const;
const severityRank = { critical: 0, warning: 1, info: 2 } as const;
const dismissSelector = 'button[aria-label^="Dismiss announcement:"]';
/** On a phone five banners filled the first screen: the gravest two show, the rest behind a toggle. */
const shownAtFirst = 2;
/**
 * A long word or address (a status page's URL) wraps inside the banner. Mantine's banner hides its overflow
 * and its text column is as wide as its longest word, so such a title pushed the × off a phone's screen (and
 * off a desktop's, at 120 letters): the banner on every page could be neither read whole nor closed.
 */
const wrapping = {
  body: { minWidth: 0 },
  label: { overflowWrap: 'anywhere' },
  message: { overflowWrap: 'anywhere' },
  closeButton: { flexShrink: 0 },
} as const;

/** The gravest first, whatever order the server lists them in; the newest first within a level. */
function bySeverity(a: Announcement, b: Announcement): number {
  return severityRank[a.level] - severityRank[b.level] || Date.parse(b.created_at) - Date.parse(a.created_at);
}

/**
 * Issue 15: the staff's announcements, above every signed-in page for their period. Closing one hides
 * it at once and for good on every device (the dismissal is stored on the server). A failed load shows
 * nothing: a banner is never worth an error on every page.
 */
export function AnnouncementBanners() {
  const queryClient = useQueryClient();
  const query = useQuery(activeAnnouncementsQuery());
  const region = useRef<HTMLDivElement>(null);
  const restId = useId();
  const [expanded, { toggle }] = useDisclosure(false);
  const dark = useComputedColorScheme('light') === 'dark';
  // The closed banner takes its focused button with it: the focus goes to the banner now in its place (or
  // the one before), else to the main content, never to <body>.
  const pendingFocus = useRef<{ id: string; index: number; main: HTMLElement | null } | null>(null);
  const dismiss = useMutation({
    mutationFn: dismissAnnouncement,
    onMutate: (id) => {
      queryClient.setQueryData(activeAnnouncementsQuery().queryKey, (current) =>
        current?.filter((a) => a.id !== id),
      );
    },
    onSettled: () => void queryClient.invalidateQueries({ queryKey: announcementKeys.active }),
  });
  const announcements = query.data ? query.data.toSorted(bySeverity) : [];
  useLayoutEffect(() => {
    const pending = pendingFocus.current;
    // Acts on the render that removed the banner, not on one before it.
    if (!pending || announcements.some((a) => a.id === pending.id)) return;
    pendingFocus.current = null;
    const buttons = region.current?.querySelectorAll<HTMLButtonElement>(dismissSelector) ?? [];
    const next = buttons[Math.min(pending.index, buttons.length - 1)];
    if (next) next.focus();
    else pending.main?.focus();
  });
  if (announcements.length === 0) return null;
  const banner = (announcement: Announcement, index: number) => (
    <Alert
      key={announcement.id}
      color={colors[announcement.level]}
      variant="light"
      vars={
        dark
          ? (theme) => ({
              root: darkBannerVars(theme.colors[colors[announcement.level]], theme.colors.dark[7]),
            })
          : undefined
      }
      title={announcement.title}
      styles={wrapping}
      icon={
        announcement.level === 'info' ? (
          <IconInfoCircle aria-hidden="true" />
        ) : (
          <IconAlertTriangle aria-hidden="true" />
        )
      }
      withCloseButton
      closeButtonLabel={`Dismiss announcement: ${announcement.title}`}
      onClose={() => {
        pendingFocus.current = {
          id: announcement.id,
          index,
          main: region.current?.closest('main') ?? null,
        };
        dismiss.mutate(announcement.id);
      }}
      data-testid="announcement-banner"
    >
      {announcement.body ? (
        <Text size="sm" style={{ whiteSpace: 'pre-wrap' }}>
          {/* Its http(s) addresses are links, as on the admin's list of announcements. */}
          <LinkedText>{announcement.body}</LinkedText>
        </Text>
      ) : null}
    </Alert>
  );
  const rest = announcements.slice(shownAtFirst);
  return (
    <Stack ref={region} gap="xs" mb="md" role="region" aria-label="Announcements">
      {announcements.slice(0, shownAtFirst).map(banner)}
      {rest.length > 0 ? (
        <>
          {/* Always there for aria-controls; out of the layout while closed, so it adds no gap. */}
          <Stack id={restId} gap="xs" display={expanded ? 'flex' : 'none'}>
            {expanded ? rest.map((announcement, index) => banner(announcement, shownAtFirst + index)) : null}
          </Stack>
          <Button
            variant="subtle"
            size="xs"
            style={{ alignSelf: 'flex-start' }}
            aria-expanded={expanded}
            aria-controls={restId}
            onClick={toggle}
          >
            {/* What it shows more of, not a bare "Show 2 more" beside other lists' (screen review). */}
            {expanded
              ? 'Show fewer announcements'
              : `Show ${rest.length} more ${rest.length === 1 ? 'announcement' : 'announcements'}`}
          </Button>
        </>
      ) : null}
    </Stack>
  );
}
