import type { Container, ContainerForm } from '@haversack/contracts';
import { Alert, Button, Group, Modal, Stack, Textarea, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { NumberField } from '../../../components/number-field';
import { FeatureUpgradePrompt } from '../../../components/upgrade-prompt';
import { serverFieldErrors, useFocusFirstError } from '../../../lib/form-feedback';
import { changedFields } from '../../../lib/forms';
import { isApiError } from '../../../lib/http-client';
import { toast } from '../../../lib/toast';
import { useSingleFlight } from '../../../lib/use-single-flight';
import {
  type ContainerOwner,
  createContainer,
  invalidateContainers,
  PARTY_COLLABORATION_FEATURE,
  partyCollaborationQuery,
  updateContainer,
} from '../api/inventory-api';

/** spec/02 §5: the workspace dialog starts at 100 lbs and 20 slots. */
export const NEW_CONTAINER_MAX_WEIGHT = 100;
export const NEW_CONTAINER_MAX_SLOTS = 20;

interface ContainerDialogValues {
  name: string;
  description: string;
  maxWeight: number | string;
  maxSlots: number | string;
}

const initialValues: ContainerDialogValues = {
  name: '',
  description: '',
  maxWeight: NEW_CONTAINER_MAX_WEIGHT,
  maxSlots: NEW_CONTAINER_MAX_SLOTS,
};

/**
 * A container's own values, to edit: an unlimited weight or slot count (null, or 0: spec/02 §3 "null or 0
 * on create = unlimited") shows as an empty field.
 */
function valuesOf(container: Container): ContainerDialogValues {
  return {
    name: container.name,
    description: container.description,
    maxWeight: container.max_weight || '',
    maxSlots: container.max_slots || '',
  };
}

/**
 * spec/02 §5: max_weight defaults to 0 when it cannot be read; empty slots, or 0, mean unlimited (never
 * one slot: a container the user left unlimited must stay so).
 */
function toContainerForm(values: ContainerDialogValues): ContainerForm {
  const weight = Number(values.maxWeight);
  const slots = values.maxSlots === '' ? null : Math.round(Number(values.maxSlots));
  return {
    name: values.name.trim(),
    description: values.description.trim(),
    max_weight: Number.isFinite(weight) && weight >= 0 ? weight : 0,
    max_slots: slots === null || !Number.isFinite(slots) || slots <= 0 ? null : slots,
  };
}

export const partyContainerNeedsCollaboration =
  "The plan that applies to you in this party does not let you make containers for the party's stash. A plan with party collaboration does.";

/**
 * spec/02 §2 Create New Container dialog. For a party's container it asks the plan first, as the deploy
 * dialogs do: the server refuses one without party collaboration, so that is said before the form is
 * filled in (a question that fails answers nothing: Create itself still decides).
 */
export function CreateContainerDialog({
  opened,
  owner,
  onClose,
  onCreated,
}: {
  opened: boolean;
  owner: ContainerOwner | null;
  onClose: () => void;
  onCreated?: (containerId: string) => void;
}) {
  const partyId = owner?.type === 'party' ? owner.id : null;
  const collaboration = useQuery({
    ...partyCollaborationQuery(partyId ?? ''),
    enabled: opened && partyId !== null,
    retry: false,
  });
  const refusedUpFront = partyId !== null && collaboration.data === false;
  return (
    <ContainerDialog
      opened={opened}
      title="Create New Container"
      submitLabel="Create Container"
      initial={initialValues}
      notice={
        refusedUpFront ? (
          <FeatureUpgradePrompt feature={PARTY_COLLABORATION_FEATURE}>
            {partyContainerNeedsCollaboration}
          </FeatureUpgradePrompt>
        ) : null
      }
      blocked={refusedUpFront}
      save={(form) => {
        if (!owner) throw new Error('No owner for the new container');
        return createContainer(owner, form);
      }}
      saved={(container) => {
        toast.success(`Container "${container.name}" created`);
        onCreated?.(container.id);
      }}
      resetOnSave
      onClose={onClose}
    />
  );
}

/** A container's name, description and limits, changed (PATCH containers/{id}). */
export function EditContainerDialog({
  opened,
  container,
  onClose,
}: {
  opened: boolean;
  container: Container;
  onClose: () => void;
}) {
  return (
    <ContainerDialog
      opened={opened}
      title={`Edit ${container.name}`}
      submitLabel="Save Container"
      initial={valuesOf(container)}
      // Only what the dialog changed: a rename leaves the limits as they are, and another tab's edit stays.
      save={(form, before) => updateContainer(container.id, changedFields(before, form))}
      saved={(updated) => toast.success(`Container "${updated.name}" updated`)}
      onClose={onClose}
    />
  );
}

const formFields = ['name', 'description', 'max_weight', 'max_slots'] as const;

/**
 * A refusal of the container as a whole, which names no field of the form (an owner already at its most
 * containers): VALIDATION_ERROR never toasts, so the dialog says it above the fields.
 */
function refusalOf(error: unknown): string | null {
  if (!isApiError(error) || error.toastable) return null;
  if (serverFieldErrors(error, formFields, 'container.')) return null;
  return error.details[0]?.message ?? error.message;
}

function ContainerDialog({
  opened,
  title,
  submitLabel,
  initial,
  save,
  saved,
  resetOnSave = false,
  notice = null,
  blocked = false,
  onClose,
}: {
  opened: boolean;
  title: string;
  submitLabel: string;
  initial: ContainerDialogValues;
  /** The form to save, and the one the dialog opened with. */
  save: (form: ContainerForm, before: ContainerForm) => Promise<Container>;
  saved: (container: Container) => void;
  resetOnSave?: boolean;
  /** What the plan refuses, said above the form before it is filled in. */
  notice?: ReactNode;
  /** The plan refuses the save whatever is typed: Create stays disabled. */
  blocked?: boolean;
  onClose: () => void;
}) {
  const queryClient = useQueryClient();
  const form = useFocusFirstError(useForm<ContainerDialogValues>({ initialValues: initial }));
  const once = useSingleFlight();
  const mutation = useMutation({
    mutationFn: (values: ContainerDialogValues) =>
      save(toContainerForm(values), toContainerForm(form.getInitialValues())),
    onSuccess: async (container) => {
      await invalidateContainers(queryClient, [container.id]);
      if (resetOnSave) form.reset();
      saved(container);
      onClose();
    },
    onError: (error) => {
      const fieldErrors = serverFieldErrors(error, formFields, 'container.');
      if (fieldErrors) {
        form.setErrors({
          name: fieldErrors.name,
          description: fieldErrors.description,
          maxWeight: fieldErrors.max_weight,
          maxSlots: fieldErrors.max_slots,
        });
      }
    },
  });
  const blank = form.values.name.trim() === '';
  const refusal = refusalOf(mutation.error);
  // A refusal is of that attempt: the dialog opened again starts without it.
  const close = () => {
    mutation.reset();
    onClose();
  };
  return (
    <Modal
      opened={opened}
      onClose={close}
      title={title}
      closeButtonProps={{ 'aria-label': 'Close' }}
      centered
    >
      <form onSubmit={form.onSubmit((values) => once(() => mutation.mutateAsync(values)))}>
        <Stack gap="md">
          {refusal ? null : notice}
          {refusal ? (
            <Alert color="red" variant="light">
              {refusal}
            </Alert>
          ) : null}
          <TextInput
            label="Container Name"
            placeholder="e.g., Backpack, Belt Pouch, Chest"
            required
            maxLength={100}
            data-autofocus
            {...form.getInputProps('name')}
          />
          <Textarea
            label="Description (optional)"
            rows={2}
            maxLength={2000}
            {...form.getInputProps('description')}
          />
          <Group grow align="flex-start">
            <NumberField
              label="Max Weight"
              min={0}
              step={0.1}
              decimalScale={2}
              placeholder="Unlimited"
              {...form.getInputProps('maxWeight')}
            />
            <NumberField
              label="Max Slots"
              min={1}
              allowDecimal={false}
              placeholder="Unlimited"
              {...form.getInputProps('maxSlots')}
            />
          </Group>
          <Group justify="flex-end" gap="sm">
            <Button variant="default" onClick={close}>
              Cancel
            </Button>
            <Button
              type="submit"
              disabled={blank || blocked || mutation.isPending}
              loading={mutation.isPending}
            >
              {submitLabel}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
