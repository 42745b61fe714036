import { type LootInstance, lootMessages } from '@haversack/contracts';
import { Button, Group, Text } from '@mantine/core';
import { IconEye, IconEyeOff, IconTrash } from '@tabler/icons-react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { type ReactNode, useId, useState } from 'react';
import { ConfirmDialog } from '../../../components/confirm-dialog';
import { toast } from '../../../lib/toast';
import { transactionKeys } from '../../activity/api/transactions-api';
import {
  deleteLootInstance,
  hideLoot,
  invalidateLoot,
  lootErrorMessage,
  lootKeys,
  revealLoot,
} from '../api/loot-api';

type ManagedLoot = Pick<
  LootInstance,
  'id' | 'party_id' | 'name' | 'is_revealed' | 'distributed_at' | 'claimed_by'
>;

/**
 * The GM's reveal, hide and delete of one loot (spec/02 §2, §8), with the spec's toasts. The loot and the
 * party's list are refreshed whether it worked or not: a refusal may mean someone changed it meanwhile.
 */
export function useLootManagement(loot: ManagedLoot, options: { onDeleted?: () => void } = {}) {
  const queryClient = useQueryClient();
  const refresh = () => invalidateLoot(queryClient, loot.party_id, loot.id);
  const reveal = useMutation({
    mutationFn: () => revealLoot(loot.id),
    onSuccess: () => toast.success(lootMessages.revealed),
    onError: (error) => toast.error(lootErrorMessage(error, lootMessages.revealFailed)),
    onSettled: refresh,
  });
  const hide = useMutation({
    mutationFn: () => hideLoot(loot.id),
    onSuccess: () => toast.success(lootMessages.hidden),
    onError: (error) => toast.error(lootErrorMessage(error, lootMessages.hideFailed)),
    onSettled: refresh,
  });
  const remove = useMutation({
    mutationFn: () => deleteLootInstance(loot.id),
    onSuccess: async () => {
      toast.success(lootMessages.deleted);
      options.onDeleted?.();
      queryClient.removeQueries({ queryKey: lootKeys.instance(loot.id) });
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: lootKeys.partyLoot(loot.party_id) }),
        queryClient.invalidateQueries({ queryKey: transactionKeys.party(loot.party_id) }),
      ]);
    },
    onError: async (error) => {
      toast.error(lootErrorMessage(error, lootMessages.deleteFailed));
      await refresh();
    },
  });
  return { reveal, hide, remove };
}

/**
 * Reveal (or Hide) and Delete, for the GM, on a loot card and on the loot's page; Delete asks first.
 * `children` go between them (the page's Edit and Distribute). Distributed loot cannot be hidden (the
 * server refuses: it would hide from the players how they came by what they hold), so no Hide is offered;
 * nor can loot someone took or claimed from (its claimed_by), for the same reason: Hide is there, disabled,
 * with the server's reason under it.
 */
export function LootManageActions({
  loot,
  onDeleted,
  size = 'xs',
  children,
}: {
  loot: ManagedLoot;
  onDeleted?: () => void;
  size?: 'xs' | 'sm';
  children?: ReactNode;
}) {
  const { reveal, hide, remove } = useLootManagement(loot, { onDeleted });
  const [confirming, setConfirming] = useState(false);
  const busy = reveal.isPending || hide.isPending || remove.isPending;
  const hideBlockedId = useId();
  const takenFrom = loot.is_revealed && !loot.distributed_at && loot.claimed_by.length > 0;
  return (
    <>
      <Group gap="xs" data-testid="loot-manage-actions">
        {loot.is_revealed ? (
          loot.distributed_at ? null : (
            <Button
              size={size}
              variant="outline"
              color="gray"
              leftSection={<IconEyeOff size={16} aria-hidden="true" />}
              title={lootMessages.hideTitle}
              aria-label={`Hide ${loot.name}`}
              loading={hide.isPending}
              disabled={takenFrom || (busy && !hide.isPending)}
              aria-describedby={takenFrom ? hideBlockedId : undefined}
              onClick={() => hide.mutate()}
            >
              Hide
            </Button>
          )
        ) : (
          <Button
            size={size}
            variant="light"
            leftSection={<IconEye size={16} aria-hidden="true" />}
            title={lootMessages.revealTitle}
            aria-label={`Reveal ${loot.name}`}
            loading={reveal.isPending}
            disabled={busy && !reveal.isPending}
            onClick={() => reveal.mutate()}
          >
            Reveal
          </Button>
        )}
        {children}
        <Button
          size={size}
          variant="light"
          color="red"
          leftSection={<IconTrash size={16} aria-hidden="true" />}
          title="Delete this loot and everything in it"
          // Which loot, in a list of cards that each have one (as "Deploy Bandit Camp" names its template).
          aria-label={`Delete ${loot.name}`}
          disabled={busy}
          onClick={() => setConfirming(true)}
        >
          Delete
        </Button>
        <ConfirmDialog
          opened={confirming}
          title={`Delete ${loot.name}?`}
          message={lootMessages.confirmDelete}
          confirmLabel="Delete"
          loading={remove.isPending}
          onClose={() => setConfirming(false)}
          onConfirm={() => remove.mutate(undefined, { onSettled: () => setConfirming(false) })}
        />
      </Group>
      {takenFrom ? (
        <Text size="xs" c="dimmed" id={hideBlockedId}>
          {lootMessages.takenCannotHide}
        </Text>
      ) : null}
    </>
  );
}
