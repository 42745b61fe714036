import { type ItemTemplate, MAX_STACK_QUANTITY, partyMessages } from '@haversack/contracts';
import { Alert, Button, Group, Modal, Select, Stack, Text } from '@mantine/core';
import { useQueries, useQuery } from '@tanstack/react-query';
import { useEffect, useId, useRef, useState } from 'react';
import { Link } from 'react-router';
import { ErrorPanel } from '../../../components/error-panel';
import { NumberField } from '../../../components/number-field';
import { dialogFirstField } from '../../../lib/dialog-first-field';
import { quantityError, quantityFieldProps } from '../../../lib/quantity-field';
import { myCharactersQuery, partyCharactersQuery } from '../../characters/api/characters-api';
import { myActivePartiesQuery } from '../../parties/api/parties-api';
import type { ContainerOwner } from '../api/inventory-api';
import { useConjuringRefusal } from '../hooks/use-conjuring-refusal';
import { useAddFromMarket } from '../hooks/use-inventory-actions';
import { useOwnerContainers } from '../hooks/use-owner-containers';
import { partyCollaborationLocked, usePlanLockedContainers } from '../hooks/use-plan-locked-containers';
import { containerAllowanceAt, useAllowanceRefusalAt } from '../hooks/use-spent-allowances';
import { containerSearchProps, groupedByOwner, sourceOptionLabel } from './container-source-select';
import { RefusalAlert } from './refusal-alert';
import { refusedButtonProps, SpentAllowanceNote } from './spent-allowance-note';

const addFailed = 'Failed to add the item';

/** After the modal's closing transition and its own focus return (Mantine's 200 ms). */
const RETURN_FOCUS_AFTER_MS = 300;

/**
 * "Add to Container": one of my characters' containers, or a party stash I may fill, and a quantity
 * (spec/02 §2 marketplace). The GM of a party may act on every container of it (DESIGN §4 Who may act), so
 * its characters' containers are offered to them too, after the stash, as on the party's Inventory tab and
 * a container page: a GM without a character gives a player an item straight from the marketplace.
 */
export function AddToContainerDialog({
  template,
  onClose,
  onAdded,
}: {
  template: Pick<ItemTemplate, 'id' | 'name'> | null;
  onClose: () => void;
  /** After a successful add: for a page that shows what the add changed (a template's count of stacks). */
  onAdded?: () => void;
}) {
  const characters = useQuery({ ...myCharactersQuery(), enabled: template !== null });
  const parties = useQuery({ ...myActivePartiesQuery(), enabled: template !== null });
  const gmParties = (parties.data?.parties ?? []).filter((p) => p.is_gm);
  // A party whose characters could not be read offers its stash still, as a failed container list does.
  const partyCharacters = useQueries({
    queries: gmParties.map((p) => ({ ...partyCharactersQuery(p.id), enabled: template !== null })),
    combine: (results) => ({
      characters: results.flatMap((result) => result.data?.characters ?? []),
      isPending: results.some((result) => result.isPending),
    }),
  });
  const mine = characters.data?.characters ?? [];
  const mineIds = new Set(mine.map((c) => c.id));
  const theirs = partyCharacters.characters.filter(
    (c, index, all) => !mineIds.has(c.id) && all.findIndex((other) => other.id === c.id) === index,
  );
  const owners: ContainerOwner[] = [
    ...mine.map((c) => ({ type: 'character' as const, id: c.id })),
    ...(parties.data?.parties ?? [])
      .filter((p) => p.is_member)
      .map((p) => ({ type: 'party' as const, id: p.id })),
    ...theirs.map((c) => ({ type: 'character' as const, id: c.id })),
  ];
  // Asked for once every owner is known (my characters, my parties, their characters): one request.
  const sources = useOwnerContainers(owners, {
    enabled: !characters.isPending && !parties.isPending && !partyCharacters.isPending,
  });
  const containers = sources.containers.filter((c) => c.can_act);
  const conjuringRefusal = useConjuringRefusal(containers);
  const planLocked = usePlanLockedContainers(containers);
  // A new stack spends an inventory action of its container's allowance (inventory.service createInstance),
  // read in the party the container is in: a stash's own, a character's container its character's (whose
  // party the character lists say). One whose allowance is used up this month is listed disabled, with why.
  const partyOfCharacter = new Map([...mine, ...theirs].map((c) => [c.id, c.party_id] as const));
  const spendsAt = (c: (typeof containers)[number]) =>
    containerAllowanceAt(c, (characterId) => partyOfCharacter.get(characterId));
  const allowanceRefusal = useAllowanceRefusalAt(containers.map(spendsAt));
  const spentRefusal = (c: (typeof containers)[number]) => allowanceRefusal(spendsAt(c));
  const refusal = (c: (typeof containers)[number]) =>
    planLocked.has(c.id) ? partyCollaborationLocked : (conjuringRefusal(c) ?? spentRefusal(c));
  const allowed = containers.filter((c) => refusal(c) === null);
  // With none open, the first whose allowance is used up stays chosen: the field and the line under it
  // say which and why (the other refusals leave the field empty, with their reasons as its description).
  const fallback =
    allowed.length === 0
      ? containers.find((c) => !planLocked.has(c.id) && !conjuringRefusal(c) && spentRefusal(c))
      : undefined;
  // Every reason a container is closed, each once: a player may meet both (their own bag in a GM-only
  // party, the party's stash beyond their plan), and one must not hide the other.
  const reasons = [
    containers.some((c) => planLocked.has(c.id))
      ? `${partyCollaborationLocked}: a party’s stash is out of reach.`
      : null,
    containers.some((c) => !planLocked.has(c.id) && conjuringRefusal(c) !== null)
      ? partyMessages.conjuringGmOnly
      : null,
  ].filter((reason) => reason !== null);
  const [target, setTarget] = useState<string | null>(null);
  const [quantity, setQuantity] = useState<number | string>(1);
  const add = useAddFromMarket({ showsRefusal: () => true });
  const submitButton = useRef<HTMLButtonElement>(null);
  const opener = useRef<{ element: Element | null; label: string | null }>({ element: null, label: null });
  useEffect(() => {
    if (template) {
      setQuantity(1);
      add.reset();
      const element = document.activeElement;
      opener.current = { element, label: element?.getAttribute('aria-label') ?? null };
    }
  }, [template, add.reset]);
  /**
   * After an add, the focus goes back to the button that opened the dialog. Its pending submit button had
   * dropped the focus to <body>, and the list behind (the marketplace's counts) may have drawn the opener
   * anew meanwhile: then the button of the same name takes it.
   */
  const closeAfterAdding = () => {
    onAdded?.();
    onClose();
    const { element, label } = opener.current;
    setTimeout(() => {
      const focused = document.activeElement;
      if (focused && focused !== document.body) return;
      const again =
        element?.isConnected || !label
          ? element
          : document.querySelector(`[aria-label="${CSS.escape(label)}"]`);
      if (again instanceof HTMLElement) again.focus();
    }, RETURN_FOCUS_AFTER_MS);
  };
  useEffect(() => {
    // A pending submit disables its button, and the browser then drops focus to the page behind the open
    // dialog: after a refusal, focus goes back to that button, just below the refusal.
    const focused = document.activeElement;
    if (add.isError && (!focused || focused === document.body)) submitButton.current?.focus();
  }, [add.isError]);
  useEffect(() => {
    // A container the party's rule closes (known once its party has loaded) gives way to an open one.
    if (target === null || !allowed.some((c) => c.id === target))
      setTarget(allowed[0]?.id ?? fallback?.id ?? null);
  }, [target, allowed, fallback]);
  const amount = Number(quantity);
  const problem = quantityError(quantity, null);
  const valid = target !== null && problem === null;
  const chosen = containers.find((c) => c.id === target);
  const spentScope = chosen && spentRefusal(chosen) ? spendsAt(chosen)?.scope : undefined;
  const refusalId = useId();
  // The GM's parties' characters are waited for too: the list is drawn once, with every destination.
  const loading =
    characters.isPending ||
    parties.isPending ||
    partyCharacters.isPending ||
    (owners.length > 0 && sources.isPending);
  // Where the items could go could not be loaded: not the same as having no character.
  const failed = (characters.isError && !characters.data) || (owners.length > 0 && sources.isError);
  const retry = () => {
    if (characters.isError) void characters.refetch();
    if (parties.isError) void parties.refetch();
    if (sources.isError) void sources.refetch();
  };
  return (
    <Modal
      opened={template !== null}
      onClose={onClose}
      title={template ? `Add ${template.name}` : ''}
      closeButtonProps={{ 'aria-label': 'Close' }}
      // Wide enough on a desktop for a container's whole label (its owner and how full it is).
      size="lg"
      centered
    >
      <form
        onSubmit={(event) => {
          event.preventDefault();
          if (!template || !valid || !target || spentScope) return;
          add.mutate(
            { templateId: template.id, templateName: template.name, containerId: target, quantity: amount },
            { onSuccess: closeAfterAdding },
          );
        }}
      >
        <Stack gap="md">
          {failed ? (
            <ErrorPanel
              title="Failed to load your containers"
              message="Where the items could go could not be loaded."
              onRetry={retry}
            />
          ) : !loading && containers.length === 0 ? (
            <Alert role="note" variant="light" color="blue">
              <Text size="sm">
                You need a character to carry items. <Link to="/characters/new">Create a character</Link>.
              </Text>
            </Alert>
          ) : (
            <Select
              label="Container"
              placeholder={
                loading
                  ? 'Loading your containers...'
                  : allowed.length === 0
                    ? 'None you can add to'
                    : 'Please select a destination'
              }
              data={groupedByOwner(containers, (c) => ({
                value: c.id,
                label: planLocked.has(c.id)
                  ? `${sourceOptionLabel(c)} (paid plans)`
                  : conjuringRefusal(c)
                    ? `${sourceOptionLabel(c)} (GM only)`
                    : spentRefusal(c)
                      ? `${sourceOptionLabel(c)} · ${spentRefusal(c)}`
                      : sourceOptionLabel(c),
                disabled: refusal(c) !== null,
              }))}
              description={reasons.length > 0 ? reasons.join(' ') : undefined}
              value={target}
              onChange={setTarget}
              // The dialog starts here, as the others start on their first field; read-only rather than
              // disabled while the containers load, so that it can hold the focus meanwhile.
              {...dialogFirstField}
              readOnly={loading}
              aria-busy={loading || undefined}
              comboboxProps={{ withinPortal: true }}
              {...containerSearchProps}
              // The dialog gives this field the focus: a list opened by that would cover the dialog, and
              // Escape would close the list, not the dialog. A click, a key or typing opens it.
              openOnFocus={false}
            />
          )}
          <NumberField
            label="Quantity"
            value={quantity}
            onChange={setQuantity}
            {...quantityFieldProps}
            max={MAX_STACK_QUANTITY}
            error={problem}
          />
          {add.isError ? <RefusalAlert error={add.error} fallback={addFailed} /> : null}
          {spentScope ? (
            <SpentAllowanceNote id={refusalId} scope={spentScope} testId="add-allowance-refusal" />
          ) : null}
          <Group justify="flex-end" gap="sm">
            <Button variant="default" onClick={onClose}>
              Cancel
            </Button>
            <Button
              ref={submitButton}
              type="submit"
              disabled={!valid || add.isPending}
              loading={add.isPending}
              {...refusedButtonProps(spentScope ? refusalId : null)}
            >
              Add to Container
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
