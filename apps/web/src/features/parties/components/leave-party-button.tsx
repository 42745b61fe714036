import type { Party } from '@haversack/contracts';
import { Button } from '@mantine/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useNavigate } from 'react-router';
import { ConfirmDialog } from '../../../components/confirm-dialog';
import { toast } from '../../../lib/toast';
import { expectPartyExit } from '../../realtime/party-channels';
import { leaveParty, partyKeys } from '../api/parties-api';

/**
 * Members may leave, GMs too, except the party's owner (its `game_master_id`): they hand it over (Members
 * tab, Make Game Master) or delete it instead (spec/02 §4).
 */
export function LeavePartyButton({ party }: { party: Party }) {
  const [confirming, setConfirming] = useState(false);
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const mutation = useMutation({
    // Leaving closes the party's live channels: that is no "You are no longer a member" news to the leaver.
    onMutate: () => ({ undoExit: expectPartyExit(party.id) }),
    mutationFn: () => leaveParty(party.id),
    onError: (_error, _variables, context) => context?.undoExit(),
    onSuccess: async () => {
      toast.success(`You left ${party.name}`);
      queryClient.removeQueries({ queryKey: partyKeys.detail(party.id) });
      await queryClient.invalidateQueries({ queryKey: partyKeys.lists() });
      navigate('/parties');
    },
  });
  return (
    <>
      <Button variant="light" color="red" size="sm" onClick={() => setConfirming(true)}>
        Leave Party
      </Button>
      <ConfirmDialog
        opened={confirming}
        title="Leave party"
        message={`Leave ${party.name}? Your characters leave the party with you, and your purchase requests still waiting for the GM are cancelled.`}
        confirmLabel="Leave Party"
        loading={mutation.isPending}
        onClose={() => setConfirming(false)}
        onConfirm={() => mutation.mutate()}
      />
    </>
  );
}
