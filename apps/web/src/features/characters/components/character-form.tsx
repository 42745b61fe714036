import {
  type CharacterForm as CharacterFormValues,
  characterDefaults,
  characterFormSchema,
} from '@haversack/contracts';
import { Alert, Anchor, Button, Group, Select, SimpleGrid, Stack, Textarea, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useQuery } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { NumberField } from '../../../components/number-field';
import { markInvalidFields, serverFieldErrors, useFocusFirstError } from '../../../lib/form-feedback';
import { toastMissingRequired, validateWith } from '../../../lib/forms';
import { isApiError, toastUnexplainedFailure } from '../../../lib/http-client';
import { generalMessages } from '../../../lib/toast';
import { useUnsavedChanges } from '../../../lib/unsaved-changes';
import { weightLabel } from '../../../lib/weight';
import { myActivePartiesQuery } from '../../parties/api/parties-api';

/** spec/02 §5 Character create defaults. */
export const characterFormDefaults: CharacterFormValues = { name: '', ...characterDefaults, party_id: null };

const fields = [
  'name',
  'race',
  'character_class',
  'level',
  'notes',
  'image_url',
  'max_weight',
  'max_slots',
  'party_id',
];

interface CharacterFormProps {
  initialValues?: CharacterFormValues;
  submitLabel: string;
  onSubmit: (values: CharacterFormValues) => Promise<void>;
  onCancel: () => void;
  onOtherError?: (error: unknown) => void;
  /**
   * Why these values cannot be submitted, as the id of the element that says so (a plan limit), or null.
   * The submit button is disabled and described by that element meanwhile.
   */
  submitBlockedBy?: (values: CharacterFormValues) => string | null;
  /** A player in exactly one party most likely creates the character for it: preselect it (they may clear it). */
  preselectOnlyParty?: boolean;
}

/** Create and edit form for a character (spec/02 §3 Character fields). */
export function CharacterForm({
  initialValues = characterFormDefaults,
  submitLabel,
  onSubmit,
  onCancel,
  onOtherError,
  submitBlockedBy,
  preselectOnlyParty = false,
}: CharacterFormProps) {
  const [formError, setFormError] = useState<string | null>(null);
  const parties = useQuery(myActivePartiesQuery());
  const form = useFocusFirstError(
    useForm<CharacterFormValues>({
      mode: 'controlled',
      initialValues,
      validate: validateWith(characterFormSchema),
      enhanceGetInputProps: markInvalidFields,
    }),
  );
  const leaveWithoutAsking = useUnsavedChanges(form.isDirty);

  // Once, when the parties arrive and none was chosen: the preselection is the form's starting point, not an
  // edit, so it does not count as unsaved (unless something was already typed).
  const preselected = useRef(false);
  const onlyParty = parties.data?.parties.length === 1 ? parties.data.parties[0] : undefined;
  useEffect(() => {
    if (!preselectOnlyParty || preselected.current || !onlyParty) return;
    preselected.current = true;
    if (form.getValues().party_id !== null) return;
    const untouched = !form.isDirty();
    form.setFieldValue('party_id', onlyParty.id);
    if (untouched) form.resetDirty({ ...form.getValues(), party_id: onlyParty.id });
  }, [preselectOnlyParty, onlyParty, form]);
  const blockedBy = submitBlockedBy?.(form.values) ?? null;

  const partyOptions = (parties.data?.parties ?? []).map((party) => ({ value: party.id, label: party.name }));
  // A preselected party (?party_id) may not be in the first page of my parties: keep it selectable.
  if (form.values.party_id && !partyOptions.some((option) => option.value === form.values.party_id)) {
    partyOptions.push({
      value: form.values.party_id,
      label: parties.isPending ? 'Loading…' : 'Selected party',
    });
  }

  const handleSubmit = async (values: CharacterFormValues) => {
    setFormError(null);
    try {
      await leaveWithoutAsking(() => onSubmit(values));
    } catch (error) {
      const fieldErrors = serverFieldErrors(error, fields, 'character.');
      if (fieldErrors) form.setErrors(fieldErrors);
      else if (isApiError(error) && error.code === 'VALIDATION_ERROR')
        setFormError(error.serverMessage ?? error.message);
      else {
        toastUnexplainedFailure(error, generalMessages.saveFailed);
        onOtherError?.(error);
      }
    }
  };

  return (
    <form
      onSubmit={form.onSubmit(handleSubmit, toastMissingRequired<CharacterFormValues>(['name']))}
      noValidate
      aria-label="Character details"
    >
      <Stack gap="md">
        {formError ? (
          <Alert color="red" variant="light">
            {formError}
          </Alert>
        ) : null}
        <TextInput label="Name" required maxLength={100} {...form.getInputProps('name')} />
        <SimpleGrid cols={{ base: 1, sm: 3 }} spacing="md">
          <TextInput label="Race" placeholder="e.g. Elf" maxLength={60} {...form.getInputProps('race')} />
          <TextInput
            label="Class"
            placeholder="e.g. Ranger"
            maxLength={60}
            {...form.getInputProps('character_class')}
          />
          <NumberField label="Level" min={1} max={30} allowDecimal={false} {...form.getInputProps('level')} />
        </SimpleGrid>
        <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="md">
          <NumberField
            label={weightLabel('Max weight')}
            description="Empty or 0 means unlimited"
            min={0}
            // Weight limits are kept in hundredths (inHundredths): the third decimal is refused as typed.
            maxDecimals={2}
            {...form.getInputProps('max_weight')}
            value={form.values.max_weight ?? ''}
            onChange={(value) => form.setFieldValue('max_weight', value === '' ? null : Number(value))}
          />
          <NumberField
            label="Max slots"
            description="Empty or 0 means unlimited"
            min={0}
            allowDecimal={false}
            {...form.getInputProps('max_slots')}
            value={form.values.max_slots ?? ''}
            onChange={(value) => form.setFieldValue('max_slots', value === '' ? null : Number(value))}
          />
        </SimpleGrid>
        <Select
          label="Party"
          placeholder={parties.isError && !parties.data ? 'Your parties could not be loaded' : 'No party'}
          data={partyOptions}
          // A GM of a long campaign runs a hundred parties (review "bigdata" §6): typing finds one.
          searchable
          nothingFoundMessage="No matching party"
          clearable
          // Tapping the chosen party again keeps it (a touch habit cleared it); the clear button removes it.
          allowDeselect={false}
          {...form.getInputProps('party_id')}
          // Not "no party" when the list failed: the player learns why theirs is missing, and may ask again.
          description={
            parties.isError && !parties.data ? (
              <>
                Your parties could not be loaded.{' '}
                <Anchor component="button" type="button" size="xs" onClick={() => void parties.refetch()}>
                  Try again
                </Anchor>
              </>
            ) : undefined
          }
          value={form.values.party_id ?? null}
          onChange={(value) => form.setFieldValue('party_id', value)}
        />
        <TextInput
          label="Image URL"
          placeholder="https://…"
          maxLength={2000}
          {...form.getInputProps('image_url')}
        />
        <Textarea label="Notes" rows={4} maxLength={5000} {...form.getInputProps('notes')} />
        <Group justify="flex-end" gap="sm">
          <Button variant="default" onClick={() => void leaveWithoutAsking(onCancel)}>
            Cancel
          </Button>
          <Button
            type="submit"
            loading={form.submitting}
            disabled={blockedBy !== null}
            aria-describedby={blockedBy ?? undefined}
          >
            {submitLabel}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
