import type { Party } from '@haversack/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { ConfirmDialog } from '../../../components/confirm-dialog';
import { toast } from '../../../lib/toast';
import { deleteParty, partyKeys } from '../api/parties-api';

/** GM only: delete a party after a confirmation (spec/02 §2, §6). */
export function DeletePartyDialog({
  party,
  onClose,
  onDeleted,
}: {
  party: Party | null;
  onClose: () => void;
  onDeleted?: () => void;
}) {
  const queryClient = useQueryClient();
  const mutation = useMutation({
    mutationFn: (id: string) => deleteParty(id),
    onSuccess: async () => {
      toast.success('Party deleted successfully');
      await queryClient.invalidateQueries({ queryKey: partyKeys.all });
      onClose();
      onDeleted?.();
    },
    onError: () => toast.error('Failed to delete party'),
  });
  return (
    <ConfirmDialog
      opened={party !== null}
      title="Delete party"
      // Say what goes with it: players' deposits in the stash are destroyed too, which they cannot see after.
      message={`Are you sure you want to delete "${party?.name ?? ''}"? Everything in its party stash, its shops and its loot is destroyed with it, and its members lose access to its history. Characters leave the party with what they carry. This cannot be undone.`}
      confirmLabel="Delete Party"
      loading={mutation.isPending}
      onClose={onClose}
      onConfirm={() => party && mutation.mutate(party.id)}
    />
  );
}
