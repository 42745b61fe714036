import { tierNameOf } from '@haversack/contracts';
import { Button, Group, Paper, Stack, Text, Title } from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { ConfirmDialog } from '../../../components/confirm-dialog';
import { toast } from '../../../lib/toast';
import { receivedPatronagesQueryOptions, subscriptionKeys } from '../../subscription/api/subscription-api';
import { endReceivedSponsorshipWords } from '../../subscription/sponsorship';
import { endPatronage, partyKeys } from '../api/parties-api';

/**
 * The sponsored member's side of the Patronage panel (spec/01 §7): where the sponsor's plan applies, who
 * gives it and with which plan, and the way to end it (the server lets either side end it). Nothing at all
 * for a member nobody sponsors here, nor while (or if) the list cannot be read: it is not news.
 */
export function SponsoredHerePanel({ partyId }: { partyId: string }) {
  const queryClient = useQueryClient();
  const received = useQuery(receivedPatronagesQueryOptions());
  const sponsorship = received.data?.find((patronage) => patronage.party_id === partyId && patronage.active);
  const [confirming, setConfirming] = useState(false);
  const end = useMutation({
    mutationFn: (patronageId: string) => endPatronage(patronageId),
    onSuccess: async () => {
      toast.success('Sponsorship ended');
      // The plan that applies here is their own again: the party's rights and the subscription page.
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: subscriptionKeys.account() }),
        queryClient.invalidateQueries({ queryKey: partyKeys.detail(partyId), exact: true }),
      ]);
    },
    onSettled: () => setConfirming(false),
  });
  if (!sponsorship) return null;
  const plan = tierNameOf(sponsorship.granted_tier);

  return (
    <Paper
      withBorder
      p="md"
      component="section"
      aria-labelledby="sponsored-here-heading"
      data-testid="sponsored-here"
    >
      <Stack gap="sm">
        <Title order={3} size="h5" id="sponsored-here-heading">
          Your sponsorship
        </Title>
        <Group justify="space-between" wrap="wrap" gap="xs">
          <Stack gap={2}>
            <Text size="sm" fw={600}>
              {`${sponsorship.patron_name ?? 'A member'} sponsors you here with ${plan}.`}
            </Text>
            <Text size="sm" c="dimmed">
              {`Inside this party your limits and features are ${plan}’s; elsewhere your own plan’s apply.`}
            </Text>
          </Stack>
          <Button
            size="xs"
            variant="light"
            color="red"
            loading={end.isPending}
            onClick={() => setConfirming(true)}
          >
            End sponsorship
          </Button>
        </Group>
      </Stack>
      <ConfirmDialog
        opened={confirming}
        title="End sponsorship"
        message={endReceivedSponsorshipWords(sponsorship, plan)}
        confirmLabel="End sponsorship"
        danger
        loading={end.isPending}
        onConfirm={() => end.mutate(sponsorship.id)}
        onClose={() => setConfirming(false)}
      />
    </Paper>
  );
}
