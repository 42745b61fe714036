import { formatEnUs, type ShopRequest, shopMessages } from '@haversack/contracts';
import { Badge, Button, Group, Paper, Skeleton, Stack, Text, VisuallyHidden } from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type ReactNode, useEffect, useRef, useState } from 'react';
import { EmptyState } from '../../../components/empty-state';
import { ErrorPanel } from '../../../components/error-panel';
import { RefreshFailedNote } from '../../../components/refresh-failed-note';
import { isApiError } from '../../../lib/http-client';
import { listReset } from '../../../lib/list-reset';
import { failedWithNothingToShow } from '../../../lib/load-failed';
import { toast } from '../../../lib/toast';
import { absoluteTime, relativeTime } from '../../activity/lib/relative-time';
import { invalidateContainers } from '../../inventory/api/inventory-api';
import { decideRequest, pendingRequestsQuery, type RequestDecision } from '../api/shop-requests-api';
import { invalidateShop } from '../api/shops-api';
import { DecidedRequests } from './decided-requests';
import { DeclineRequestForm } from './decline-request-form';

const decisionToasts: Record<RequestDecision, string> = {
  approve: shopMessages.requestApproved,
  decline: shopMessages.requestDeclined,
  cancel: shopMessages.requestCancelled,
};

/**
 * Issue 10 §8, shopping while the GM is away: the purchases above the shop's approval threshold, waiting
 * with their goods held. The GM and managers approve (coins and goods move then) or decline; who asked may
 * cancel. The list follows the party live, so a decision made elsewhere shows at once.
 */
export function ShopRequestsPanel({ shopId }: { shopId: string }) {
  const queryClient = useQueryClient();
  const query = useQuery(pendingRequestsQuery(shopId));
  // The request whose decline the GM is writing a reason for.
  const [declining, setDeclining] = useState<string | null>(null);
  // The request just decided and its place in the list: its buttons go (or are disabled) with the
  // decision, and the keyboard goes on to the request that took its place, else to the empty list.
  const [decided, setDecided] = useState<{ id: string; index: number } | null>(null);
  const panelRef = useRef<HTMLDivElement>(null);
  const emptyHeadingRef = useRef<HTMLHeadingElement>(null);
  const decide = useMutation({
    mutationFn: ({
      request,
      decision,
      reason,
    }: {
      request: ShopRequest;
      decision: RequestDecision;
      reason?: string;
    }) => decideRequest(request.id, decision, reason),
    onMutate: ({ request }) =>
      setDecided({ id: request.id, index: query.data?.findIndex((r) => r.id === request.id) ?? 0 }),
    onSuccess: (_result, { request, decision }) => {
      setDeclining(null);
      toast.success(`${decisionToasts[decision]}: ${formatEnUs(request.quantity)} × ${request.item_name}`);
    },
    onError: (error) =>
      toast.error(
        isApiError(error) ? (error.serverMessage ?? error.message) : 'The request could not be updated.',
      ),
    onSettled: async (_result, _error, { request }) => {
      await Promise.all([
        invalidateShop(queryClient, shopId),
        invalidateContainers(
          queryClient,
          [request.buyer_container_id, request.payer_container_id].filter((id): id is string => id !== null),
        ),
      ]);
    },
  });

  // Once the decision is settled (the list refetched after it), and only if the focus was lost with it.
  useEffect(() => {
    if (!decided || decide.isPending || !query.data) return;
    setDecided(null);
    const active = document.activeElement;
    if (active && active !== document.body && active.isConnected) return;
    const cards = panelRef.current?.querySelectorAll<HTMLElement>('[data-testid="shop-request"]') ?? [];
    const next = cards[Math.min(decided.index, cards.length - 1)]?.querySelector('button');
    (next ?? emptyHeadingRef.current)?.focus();
  }, [decided, decide.isPending, query.data]);

  const withDecided = (pending: ReactNode) => (
    <Stack gap="lg" ref={panelRef}>
      {/* A refresh that failed keeps the requests on screen (deciding one asks the server anew). */}
      <RefreshFailedNote query={query} />
      {pending}
      <DecidedRequests shopId={shopId} />
    </Stack>
  );
  if (query.isPending) {
    return (
      // Heard as a status: a label on a plain div is read by nobody.
      <Stack gap="sm">
        <VisuallyHidden role="status">Loading purchase requests</VisuallyHidden>
        <Skeleton height={72} aria-hidden="true" />
        <Skeleton height={72} aria-hidden="true" />
      </Stack>
    );
  }
  if (failedWithNothingToShow(query)) {
    return (
      <ErrorPanel
        title="Could not load purchase requests"
        message="Check your connection and try again."
        onRetry={() => void query.refetch()}
      />
    );
  }
  if (query.data.length === 0) {
    return withDecided(
      <EmptyState
        // Under the shop's h1 and its tabs, as the Manage tab's sections are (axe heading-order).
        headingOrder={2}
        title="No purchases waiting"
        message="Purchases above the shop's approval limit wait here for the GM."
        testId="requests-empty"
        headingRef={emptyHeadingRef}
      />,
    );
  }
  const busy = (request: ShopRequest, decision: RequestDecision) =>
    decide.isPending && decide.variables?.request.id === request.id && decide.variables.decision === decision;
  return withDecided(
    // A list, a line a request: a screen reader says how many wait and steps from one to the next.
    <Stack
      gap="sm"
      component="ul"
      aria-label="Purchase requests"
      style={listReset}
      data-testid="shop-requests"
    >
      {query.data.map((request) => (
        <Paper key={request.id} withBorder p="sm" component="li" data-testid="shop-request">
          <Stack gap={6}>
            <Group justify="space-between" align="flex-start" gap="xs" wrap="nowrap">
              <Stack gap={2} style={{ minWidth: 0 }}>
                <Text fw={600} style={{ overflowWrap: 'anywhere' }}>
                  {formatEnUs(request.quantity)} × {request.item_name}
                </Text>
                <Text size="sm" c="dimmed">
                  {request.character.name} ({request.requester.name}) ·{' '}
                  <span title={absoluteTime(request.created_at)}>{relativeTime(request.created_at)}</span>
                </Text>
              </Stack>
              <Stack gap={4} align="flex-end">
                <Text fw={700} style={{ whiteSpace: 'nowrap' }}>
                  {request.formatted}
                </Text>
                {request.payment_source === 'party' ? (
                  <Badge variant="light" color="grape" size="sm">
                    Party fund
                  </Badge>
                ) : null}
              </Stack>
            </Group>
            {declining === request.id && request.can_decide ? (
              <DeclineRequestForm
                request={request}
                busy={busy(request, 'decline')}
                onDecline={(reason) => decide.mutate({ request, decision: 'decline', reason })}
                onKeep={() => {
                  setDeclining(null);
                  // Back where the keyboard was: on this request's Decline.
                  requestAnimationFrame(() =>
                    document.querySelector<HTMLElement>(`[data-decline-for="${request.id}"]`)?.focus(),
                  );
                }}
              />
            ) : (
              // Decided at the table, often by finger on a tablet: buttons of the usual 36 px, not 30.
              <Group justify="flex-end" gap="xs">
                {request.can_cancel ? (
                  <Button
                    size="sm"
                    variant="default"
                    loading={busy(request, 'cancel')}
                    disabled={decide.isPending}
                    onClick={() => decide.mutate({ request, decision: 'cancel' })}
                    aria-label={`Cancel request for ${formatEnUs(request.quantity)} × ${request.item_name}`}
                  >
                    Cancel request
                  </Button>
                ) : null}
                {request.can_decide ? (
                  <>
                    <Button
                      size="sm"
                      variant="light"
                      color="red"
                      loading={busy(request, 'decline')}
                      disabled={decide.isPending}
                      onClick={() => setDeclining(request.id)}
                      data-decline-for={request.id}
                      aria-label={`Decline ${formatEnUs(request.quantity)} × ${request.item_name} for ${request.character.name}`}
                    >
                      Decline
                    </Button>
                    <Button
                      size="sm"
                      loading={busy(request, 'approve')}
                      disabled={decide.isPending}
                      onClick={() => decide.mutate({ request, decision: 'approve' })}
                      aria-label={`Approve ${formatEnUs(request.quantity)} × ${request.item_name} for ${request.character.name}`}
                    >
                      Approve
                    </Button>
                  </>
                ) : null}
              </Group>
            )}
          </Stack>
        </Paper>
      ))}
    </Stack>,
  );
}
