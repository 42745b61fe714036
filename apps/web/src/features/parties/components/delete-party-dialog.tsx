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
      message={`Are you sure you want to delete "${party?.name ?? ''}"? Its members lose access and this cannot be undone.`}
      confirmLabel="Delete Party"
      loading={mutation.isPending}
      onClose={onClose}
      onConfirm={() => party && mutation.mutate(party.id)}
    />
  );
}
