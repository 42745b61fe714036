import {
  encumbranceStyles,
  gameSystemOptions,
  joinPermissions,
  type PartyForm as PartyFormValues,
  partyFormSchema,
} from '@haversack/contracts';
import { Alert, Button, Group, Select, Stack, Switch, Textarea, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useState } from 'react';
import { markInvalidFields, serverFieldErrors, useFocusFirstError } from '../../../lib/form-feedback';
import { validateWith } from '../../../lib/forms';
import { isApiError } from '../../../lib/http-client';
import { useUnsavedChanges } from '../../../lib/unsaved-changes';

export const partyFormDefaults: PartyFormValues = {
  name: '',
  description: '',
  game_system: '',
  setting: '',
  join_permission: 'limited',
  encumbrance_style: 'both',
  item_conjuring: 'free',
  is_public: false,
};

const fields = Object.keys(partyFormDefaults);

const joinPermissionLabels: Record<(typeof joinPermissions)[number], string> = {
  full: 'Full: anyone with the code, any role',
  limited: 'Limited: anyone with the code, as player or observer',
  restricted: 'Restricted: by invitation only',
};
const encumbranceLabels: Record<(typeof encumbranceStyles)[number], string> = {
  weight: 'Weight',
  slots: 'Slots',
  both: 'Weight and slots',
  none: 'None',
};

interface PartyFormProps {
  initialValues?: PartyFormValues;
  submitLabel: string;
  onSubmit: (values: PartyFormValues) => Promise<void>;
  onCancel: () => void;
  /** Called with errors that are neither field errors nor a form-level validation message. */
  onOtherError?: (error: unknown) => void;
  /**
   * The id of the element saying why nothing can be submitted now (a plan limit), or null: the submit is
   * disabled and described by it meanwhile.
   */
  submitBlockedBy?: string | null;
}

/** spec/02 §2, §5 Party create and edit form. */
export function PartyForm({
  initialValues = partyFormDefaults,
  submitLabel,
  onSubmit,
  onCancel,
  onOtherError,
  submitBlockedBy = null,
}: PartyFormProps) {
  const [formError, setFormError] = useState<string | null>(null);
  const form = useFocusFirstError(
    useForm<PartyFormValues>({
      mode: 'controlled',
      initialValues,
      validate: validateWith(partyFormSchema),
      enhanceGetInputProps: markInvalidFields,
    }),
  );

  const leaveWithoutAsking = useUnsavedChanges(form.isDirty);

  const handleSubmit = async (values: PartyFormValues) => {
    setFormError(null);
    try {
      await leaveWithoutAsking(() => onSubmit(values));
    } catch (error) {
      // spec/02 §5: VALIDATION_ERROR details go onto their fields ("party.name" → name); a validation
      // error naming no field goes to the form; other errors were toasted by the HTTP client.
      const fieldErrors = serverFieldErrors(error, fields, 'party.');
      if (fieldErrors) form.setErrors(fieldErrors);
      else if (isApiError(error) && error.code === 'VALIDATION_ERROR')
        setFormError(error.serverMessage ?? error.message);
      else onOtherError?.(error);
    }
  };

  return (
    <form onSubmit={form.onSubmit(handleSubmit)} noValidate aria-label="Party details">
      <Stack gap="md">
        {formError ? (
          <Alert color="red" variant="light" data-testid="party-form-error">
            {formError}
          </Alert>
        ) : null}
        <TextInput label="Party Name" required maxLength={100} {...form.getInputProps('name')} />
        <Textarea label="Description" rows={4} maxLength={2000} {...form.getInputProps('description')} />
        <Select
          label="Game System"
          placeholder="Choose a game system"
          data={[...gameSystemOptions]}
          clearable
          {...form.getInputProps('game_system')}
          value={form.values.game_system || null}
          onChange={(value) => form.setFieldValue('game_system', value ?? '')}
        />
        <TextInput
          label="Setting"
          placeholder="e.g. Forgotten Realms"
          maxLength={200}
          {...form.getInputProps('setting')}
        />
        <Select
          label="Join Permission"
          data={joinPermissions.map((value) => ({ value, label: joinPermissionLabels[value] }))}
          allowDeselect={false}
          {...form.getInputProps('join_permission')}
        />
        {form.values.join_permission === 'full' ? (
          <Alert color="yellow" variant="light" data-testid="full-permission-warning">
            With full access, anyone who has the join code can join with any role, even Game Master or
            Manager.
          </Alert>
        ) : null}
        <Select
          label="Encumbrance Style"
          data={encumbranceStyles.map((value) => ({ value, label: encumbranceLabels[value] }))}
          allowDeselect={false}
          {...form.getInputProps('encumbrance_style')}
        />
        <Switch
          label="Only the GM adds items from the marketplace"
          description="When on, players cannot create items or coins from nothing: the GM hands them out."
          checked={form.values.item_conjuring === 'gm_only'}
          onChange={(event) =>
            form.setFieldValue('item_conjuring', event.currentTarget.checked ? 'gm_only' : 'free')
          }
        />
        <Switch
          label="Public party"
          description="Public parties are listed on the Discover page."
          {...form.getInputProps('is_public', { type: 'checkbox' })}
        />
        <Group justify="flex-end" gap="sm">
          <Button variant="default" onClick={() => void leaveWithoutAsking(onCancel)}>
            Cancel
          </Button>
          <Button
            type="submit"
            loading={form.submitting}
            disabled={submitBlockedBy !== null}
            aria-describedby={submitBlockedBy ?? undefined}
          >
            {submitLabel}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
