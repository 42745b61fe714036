import { type Container, formatEnUs } from '@haversack/contracts';
import { ActionIcon, Badge, Button, Group, Paper, Progress, Select, Stack, Text } from '@mantine/core';
import { IconX } from '@tabler/icons-react';
import { useEffect, useId, useRef } from 'react';
import { useOptionsOnFirstUse } from '../../../lib/use-options-on-first-use';
import type { TransferQueue } from '../hooks/use-transfer-queue';
import { containerSearchProps, groupedByOwner, sourceOptionLabel } from './container-source-select';

/** Says what the destination is for before the first swipe, not only in the refusal after it. */
export const destinationPlaceholder = 'Choose where swiped items go';
/**
 * How much of the bottom of the screen the floating bar covers, for what else is drawn there: a desktop's
 * toasts open at the bottom right (global.css) and rise above it rather than over Process Queue.
 */
export const bottomCoverProperty = '--haversack-bottom-cover';
/** A desktop's queue is filled with Q, Ctrl+click or Add to Queue: nothing is swiped there. */
export const queuedDestinationPlaceholder = 'Choose where queued items go';

/**
 * spec/02 §2 transfer queue bar: destination, queued items, remove, clear and process. It sticks to the
 * bottom of a phone screen only while it has something to act on (queued items, a run, a refusal such
 * as a swipe right without a destination); an empty queue sits after the items, so it covers none of
 * them. While it floats it is as short as it can be (review 2026-11: 163 px of an 812 px screen): Clear
 * shares the title's line and Process Queue follows the queued items, on their line when there is room,
 * else under them at the right. The items wrap (review 2026-12: scrolled sideways beside Process Queue, a
 * phone showed the second as "SA…", neither readable nor removable) and, past two lines, scroll up and
 * down; the swipe help gives way, since whoever queued an item has swiped already. On a short screen (a
 * phone in landscape, review "touch": 167 px of 375) it takes two lines: the title, Clear and Destination,
 * then the items and Process Queue (global.css). The height it covers is told to `onCoverChange`, for the lists that scroll on their own
 * to pad their end by as much.
 */
export function TransferQueueBar({
  queue,
  containers,
  swipes = true,
  nowhere = null,
  refusal = null,
  onCoverChange,
}: {
  queue: TransferQueue;
  containers: Container[];
  /** Whether items are swiped into it (phones and tablets), which its help and placeholder speak of. */
  swipes?: boolean;
  /**
   * Why the queue can never have a destination here (the party stash, with no character's containers the
   * user may fill): said instead of an empty Destination and the swipe help.
   */
  nowhere?: string | null;
  /**
   * Why none of the queued items can go to the destination now (the monthly allowance their moves would
   * spend is used up): Process Queue stays in its place, disabled, described by it.
   */
  refusal?: string | null;
  onCoverChange?: (height: number) => void;
}) {
  const busy = queue.progress !== null;
  const hasItems = queue.items.length > 0;
  const floating = hasItems || busy || queue.error !== null;
  const { keepMounted, ...destinationFirstUse } = useOptionsOnFirstUse();
  const destinationOptions = groupedByOwner(
    containers.filter((c) => c.can_act),
    (c) => ({ value: c.id, label: sourceOptionLabel(c) }),
  );
  const destinationLabel = destinationOptions
    .flatMap((group) => group.items)
    .find((option) => option.value === queue.destination)?.label;
  const bar = useRef<HTMLElement>(null);
  const refusalId = useId();
  useEffect(() => {
    const element = bar.current;
    if (!floating || !element) {
      onCoverChange?.(0);
      return;
    }
    // The page's own scrolling (a tile focused from the keyboard, "Skip to items") stops above the bar too.
    const page = document.documentElement;
    const report = () => {
      const height = Math.ceil(element.getBoundingClientRect().height);
      page.style.scrollPaddingBottom = `${height}px`;
      page.style.setProperty(bottomCoverProperty, `${height}px`);
      onCoverChange?.(height);
    };
    report();
    const observer = new ResizeObserver(report);
    observer.observe(element);
    return () => {
      observer.disconnect();
      page.style.scrollPaddingBottom = '';
      page.style.removeProperty(bottomCoverProperty);
    };
  }, [floating, onCoverChange]);
  return (
    <Paper
      ref={bar}
      withBorder
      shadow={floating ? 'md' : undefined}
      p={floating ? 'xs' : 'sm'}
      pos={floating ? 'sticky' : undefined}
      bottom={floating ? 0 : undefined}
      style={floating ? { zIndex: 5 } : undefined}
      component="section"
      aria-label="Transfer queue"
      data-testid="transfer-queue"
      // A short screen (a phone in landscape) draws a floating bar on two lines (global.css).
      className="haversack-queue-bar"
      data-floating={floating || undefined}
    >
      <Stack gap={floating ? 6 : 'xs'} className="haversack-queue-bar-body">
        <Group
          justify="space-between"
          gap="xs"
          data-testid="transfer-queue-header"
          className="haversack-queue-bar-header"
        >
          <Group gap={6}>
            <Text fw={600} size="sm">
              Transfer queue
            </Text>
            <Badge variant="light">{queue.items.length}</Badge>
          </Group>
          {hasItems || busy ? (
            <Button variant="default" size="sm" onClick={queue.clear} disabled={busy}>
              Clear
            </Button>
          ) : floating || !swipes || nowhere ? null : (
            <Text size="xs" c="dimmed">
              Swipe right: Quick Transfer · left: Add to Queue
            </Text>
          )}
        </Group>
        {nowhere && !hasItems && !busy ? (
          <Text size="sm" c="dimmed" data-testid="transfer-queue-nowhere">
            {nowhere}
          </Text>
        ) : (
          <Select
            {...destinationFirstUse}
            label="Destination"
            className="haversack-queue-bar-destination"
            placeholder={swipes ? destinationPlaceholder : queuedDestinationPlaceholder}
            data={destinationOptions}
            {...containerSearchProps}
            value={queue.destination}
            // "Belt pouch (Lyra Moonwhisper, Seeker of the Lost Archive) · 12% full · 3/20 slots" is wider than
            // a phone: the theme ends it in an ellipsis, and the whole of it is the title (a screen reader reads
            // the value whole).
            title={destinationLabel}
            onChange={queue.choose}
            error={queue.error ?? undefined}
            // The bar is sticky at the bottom of a scrolling page: floating-ui can judge it detached for a
            // frame after a swipe and would hide the open list, so keep it shown and open it upwards.
            comboboxProps={{ withinPortal: true, hideDetached: false, position: 'top', keepMounted }}
            disabled={busy}
          />
        )}
        {hasItems || busy ? (
          <Group
            gap="xs"
            align="flex-start"
            data-testid="transfer-queue-items"
            className="haversack-queue-bar-items"
          >
            {/* Whole items, as many lines as they need up to two, then scrolled: the bar does not grow over
                the list. Process Queue stays at the bar's bottom right, under the toasts a desktop raises
                above the bar. */}
            <Group
              gap={6}
              role="list"
              aria-label="Queued items"
              className="haversack-queue-bar-chips"
              style={{
                flex: '1 1 auto',
                minWidth: 0,
                // Its height, two lines of items (one on a short screen), is global.css's.
                overflowY: 'auto',
                overscrollBehaviorY: 'contain',
              }}
            >
              {queue.items.map((item) => (
                <Badge
                  key={item.id}
                  role="listitem"
                  variant="outline"
                  size="lg"
                  pr={3}
                  maw="100%"
                  style={{ flexShrink: 0 }}
                  rightSection={
                    <ActionIcon
                      // A finger's target (24 px, WCAG 2.5.8) on phones and tablets.
                      size={24}
                      variant="transparent"
                      color="gray"
                      aria-label={`Remove ${item.name} from queue`}
                      onClick={() => queue.remove(item.id)}
                      disabled={busy}
                    >
                      <IconX size={12} aria-hidden="true" />
                    </ActionIcon>
                  }
                >
                  {item.name} ×{formatEnUs(item.quantity)}
                </Badge>
              ))}
            </Group>
            <Button
              size="sm"
              onClick={() => {
                if (!refusal) void queue.process();
              }}
              loading={busy}
              ml="auto"
              // Focusable still, and told why, rather than dropped from the keyboard's way (aria-disabled).
              aria-disabled={refusal ? true : undefined}
              data-disabled={refusal ? true : undefined}
              aria-describedby={refusal ? refusalId : undefined}
            >
              Process Queue
            </Button>
          </Group>
        ) : null}
        {refusal && hasItems && !busy ? (
          <Text size="xs" c="dimmed" id={refusalId} data-testid="transfer-queue-refusal">
            {refusal}.
          </Text>
        ) : null}
        {queue.progress ? (
          <Stack gap={4} role="status">
            <Text size="xs">
              Transferring {Math.min(queue.progress.done + 1, queue.progress.total)} of {queue.progress.total}
            </Text>
            <Progress
              value={queue.progress.total ? (queue.progress.done / queue.progress.total) * 100 : 100}
              aria-label="Queue progress"
            />
          </Stack>
        ) : null}
      </Stack>
    </Paper>
  );
}
