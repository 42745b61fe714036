import { type Container, type ItemInstance, samePersonalState } from '@haversack/contracts';
import { Anchor, Button, Divider, Group, Stack, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { type MouseEvent, type RefObject, useCallback, useEffect, useId, useRef, useState } from 'react';
import { Link } from 'react-router';
import { ConfirmDialog } from '../../../components/confirm-dialog';
import { upgradeLinkLabel } from '../../../lib/upgrade-link';
import { type ActionScope, allowanceUpgradePath } from '../api/allowance-api';
import { hasOverrides, mergeTargetsQuery } from '../api/inventory-api';
import { useDestroyItem } from '../hooks/use-inventory-actions';
import { containerScope, moveScope, useAllowanceRefusal } from '../hooks/use-spent-allowances';
import type { UnsavedForm } from '../hooks/use-unsaved-form';
import type { ItemAbout } from '../workspace-types';
import { CloneTemplateForm } from './clone-template-form';
import { EditItemForm } from './edit-item-form';
import { GiveItemForm } from './give-item-dialog';
import { ItemFacts } from './item-facts';
import { ItemStatusSwitches } from './item-status-switches';
import { actingCharacterOf } from './item-tile';
import { MergeItemForm } from './merge-item-form';
import { MoveItemForm } from './move-item-form';
import { SplitItemForm } from './split-item-form';

/** spec/02 §2 destroy confirmation. */
export const destroyConfirmation =
  'Are you sure you want to destroy this item? This action cannot be undone.';

type Mode = 'view' | 'edit' | 'split' | 'merge' | 'move' | 'clone' | 'give';
type FormMode = Exclude<Mode, 'view'>;
const modeTitles: Record<FormMode, string> = {
  edit: 'Edit item',
  split: 'Split stack',
  merge: 'Merge with another stack',
  move: 'Transfer',
  clone: 'Clone to template',
  give: 'Give to...',
};

/** A form's fields: text, number and select inputs (a Select's hidden value input is not one). */
const fieldSelector = 'input:not([type="hidden"]):not(:disabled), textarea:not(:disabled)';

export function ItemDetailBody({
  item,
  about = null,
  canAct,
  destinations,
  onAddToQueue,
  onClose,
  onConfirmingChange,
  unsaved,
  formLevel,
  onCancelForm,
}: {
  item: ItemInstance;
  about?: ItemAbout | null;
  canAct: boolean;
  destinations: Container[];
  /** Phones and tablets: put the item in the transfer queue. */
  onAddToQueue?: () => void;
  onClose: () => void;
  /** The destroy confirmation opens or closes over the item's dialog. */
  onConfirmingChange?: (confirming: boolean) => void;
  /** Whether the form open would lose what was typed, read as the dialog is asked to close. */
  unsaved?: UnsavedForm;
  /** While a form is open, what goes back from it to the item (the dialog's Escape backs out one level). */
  formLevel?: RefObject<(() => void) | null>;
  /**
   * What a form's Cancel does: the dialog's Escape, back to the item and asking first when something was
   * typed. Without it, Cancel goes straight back to the item.
   */
  onCancelForm?: () => void;
}) {
  const [mode, setMode] = useState<Mode>('view');
  const [confirming, setConfirmingState] = useState(false);
  const setConfirming = (open: boolean) => {
    setConfirmingState(open);
    onConfirmingChange?.(open);
  };
  const destroy = useDestroyItem(item);
  // Only a plain stack merges, and only with another plain stack of the same item in the same container,
  // equipped and attuned alike (else merging would attune every piece, past the limit).
  const mergeable = canAct && !hasOverrides(item);
  const stacks = useQuery({ ...mergeTargetsQuery(item), enabled: mergeable });
  const mergeTargets = (stacks.data ?? []).filter(
    (stack) => stack.id !== item.id && samePersonalState(stack.instance_data, item.instance_data),
  );
  const back = useCallback(() => setMode('view'), []);
  const cancel = onCancelForm ?? back;
  useEffect(() => {
    if (!formLevel || mode === 'view') return;
    formLevel.current = back;
    return () => {
      if (formLevel.current === back) formLevel.current = null;
    };
  }, [formLevel, mode, back]);
  const root = useRef<HTMLDivElement>(null);
  const form = useRef<HTMLDivElement>(null);
  const actionButtons = useRef(new Map<FormMode, HTMLButtonElement>());
  const lastMode = useRef<Mode>(mode);
  useEffect(() => {
    const left = lastMode.current;
    lastMode.current = mode;
    // The button pressed goes with the view, and the form that replaces it goes with its Cancel: focus
    // fell to the page. It moves to the form's first field, and back to that button when the form is done.
    const lost = () => !document.activeElement || document.activeElement === document.body;
    if (mode === 'view') {
      // Or on the question that threw the form away (Discard changes), going with it.
      const dialog = root.current?.closest('[role="dialog"]');
      const elsewhere = dialog ? !dialog.contains(document.activeElement) : false;
      if (left !== 'view' && (lost() || elsewhere)) actionButtons.current.get(left)?.focus();
      return;
    }
    const region = form.current;
    if (!region) return;
    // A form with no field to fill (nobody to give to, a load that failed) offers a button instead.
    const focusFirstField = () => {
      const target =
        region.querySelector<HTMLElement>(fieldSelector) ??
        region.querySelector<HTMLElement>('button:not(:disabled)');
      if (target && (lost() || region.contains(document.activeElement))) target.focus();
      return target !== null;
    };
    if (focusFirstField()) return;
    // Give to... loads the party's characters before it draws its fields.
    const observer = new MutationObserver(() => {
      if (focusFirstField()) observer.disconnect();
    });
    observer.observe(region, { childList: true, subtree: true });
    return () => observer.disconnect();
  }, [mode]);
  // What each change would spend, as the server counts it (inventory.service): a split, a merge or a new
  // quantity the allowance of the stack's container, a gift the personal one, a move the party's when
  // either end is a party's stash. One whose allowance is used up stays in its place, disabled (focusable,
  // aria-disabled) and described by why, and opens nothing; Edit stays, for a new name spends nothing.
  const allowanceRefusal = useAllowanceRefusal();
  const source = destinations.find((c) => c.id === item.container_id);
  const stackScope = source ? containerScope(source) : null;
  const moveChoices = destinations.filter((c) => c.id !== item.container_id && c.can_act);
  const moveScopes = moveChoices.map((c) => moveScope(source, c));
  const moveClosed = moveScopes.length > 0 && moveScopes.every((scope) => allowanceRefusal(scope) !== null);
  const spends: Partial<Record<FormMode, ActionScope | null>> = {
    split: stackScope,
    merge: stackScope,
    give: 'personal',
    move: moveClosed ? (moveScopes[0] ?? null) : null,
  };
  const refusalOf = (next: FormMode) => allowanceRefusal(spends[next] ?? null);
  const hintId = useId();
  const actionProps = (next: FormMode) => {
    const ref = (button: HTMLButtonElement | null) => {
      if (button) actionButtons.current.set(next, button);
      else actionButtons.current.delete(next);
    };
    if (refusalOf(next) === null) return { onClick: () => setMode(next), ref };
    return {
      ref,
      'aria-disabled': true,
      'data-disabled': true,
      'aria-describedby': hintId,
      onClick: (event: MouseEvent) => event.preventDefault(),
    };
  };
  // Equip, attune and give belong to a character's own items, in a container the user may change.
  const ownerCharacterId = canAct ? actingCharacterOf(item, destinations) : null;
  const shown: FormMode[] = [
    'move',
    ...(ownerCharacterId ? (['give'] as const) : []),
    ...(item.quantity > 1 ? (['split'] as const) : []),
    ...(mergeable && mergeTargets.length > 0 ? (['merge'] as const) : []),
  ];
  const closedScopes = [
    ...new Set(
      shown.flatMap((next) => {
        const scope = spends[next];
        return scope && refusalOf(next) !== null ? [scope] : [];
      }),
    ),
  ];
  return (
    <Stack gap="md" ref={root}>
      <ItemFacts item={item} about={about} />
      {ownerCharacterId && mode === 'view' ? <ItemStatusSwitches item={item} /> : null}
      {canAct ? <Divider /> : null}
      {canAct && mode === 'view' ? (
        <Group gap="xs">
          <Button variant="light" {...actionProps('edit')}>
            Edit
          </Button>
          <Button variant="light" {...actionProps('move')}>
            Transfer
          </Button>
          {ownerCharacterId ? (
            <Button variant="light" {...actionProps('give')}>
              Give to...
            </Button>
          ) : null}
          {item.quantity > 1 ? (
            <Button variant="light" {...actionProps('split')}>
              Split
            </Button>
          ) : null}
          {mergeable && mergeTargets.length > 0 ? (
            <Button variant="light" {...actionProps('merge')}>
              Merge with another stack
            </Button>
          ) : null}
          {onAddToQueue ? (
            <Button variant="light" onClick={onAddToQueue}>
              Add to Queue
            </Button>
          ) : null}
          <Button variant="light" {...actionProps('clone')}>
            Clone to template
          </Button>
          <Button variant="light" color="red" onClick={() => setConfirming(true)}>
            Destroy
          </Button>
        </Group>
      ) : null}
      {canAct && mode === 'view' && closedScopes.length > 0 ? (
        <Text size="sm" c="dimmed" data-testid="allowance-hint">
          <span id={hintId}>{closedScopes.map((scope) => `${allowanceRefusal(scope)}.`).join(' ')}</span>{' '}
          <Anchor component={Link} to={allowanceUpgradePath(closedScopes[0] ?? 'personal')} size="sm">
            {upgradeLinkLabel}
          </Anchor>
        </Text>
      ) : null}
      {canAct && mode !== 'view' ? (
        <Stack gap="sm" ref={form}>
          <Title order={3} size="h5">
            {modeTitles[mode]}
          </Title>
          {mode === 'edit' ? (
            <EditItemForm
              item={item}
              quantityRefusal={allowanceRefusal(stackScope)}
              unsaved={unsaved}
              onDone={back}
              onCancel={cancel}
            />
          ) : null}
          {mode === 'split' ? (
            <SplitItemForm item={item} unsaved={unsaved} onDone={back} onCancel={cancel} />
          ) : null}
          {mode === 'merge' ? (
            <MergeItemForm
              item={item}
              targets={mergeTargets}
              unsaved={unsaved}
              onDone={onClose}
              onCancel={cancel}
            />
          ) : null}
          {mode === 'move' ? (
            <MoveItemForm
              item={item}
              destinations={destinations}
              unsaved={unsaved}
              onDone={onClose}
              onCancel={cancel}
            />
          ) : null}
          {mode === 'clone' ? (
            <CloneTemplateForm item={item} unsaved={unsaved} onDone={back} onCancel={cancel} />
          ) : null}
          {mode === 'give' && ownerCharacterId ? (
            <GiveItemForm
              item={item}
              ownerCharacterId={ownerCharacterId}
              unsaved={unsaved}
              onDone={onClose}
              onCancel={cancel}
            />
          ) : null}
        </Stack>
      ) : null}
      <ConfirmDialog
        opened={confirming}
        title="Destroy item"
        message={destroyConfirmation}
        confirmLabel="Destroy"
        loading={destroy.isPending}
        onClose={() => setConfirming(false)}
        onConfirm={() =>
          destroy.mutate(undefined, {
            onSuccess: () => {
              setConfirming(false);
              onClose();
            },
          })
        }
      />
    </Stack>
  );
}
