import {
  type LootTemplate,
  lootSourceTypes,
  lootTemplateFormSchema,
  templateVisibilities,
} from '@haversack/contracts';
import {
  Alert,
  Button,
  Group,
  Select,
  SimpleGrid,
  Stack,
  TagsInput,
  Textarea,
  TextInput,
} from '@mantine/core';
import { useForm } from '@mantine/form';
import { useState } from 'react';
import { markInvalidFields, serverFieldErrors, useFocusFirstError } from '../../../lib/form-feedback';
import { toastMissingRequired, validateWith } from '../../../lib/forms';
import { type ApiError, isApiError, toastUnexplainedFailure } from '../../../lib/http-client';
import { generalMessages } from '../../../lib/toast';
import { useUnsavedChanges } from '../../../lib/unsaved-changes';
import { isPlanRefusal, toastPlanRefusal } from '../../../lib/upgrade-link';
import type { LootTemplateInput } from '../api/loot-api';
import { lootSourceTypeOptions, lootVisibilityOptions } from './loot-template-filters';

export interface LootTemplateFormValues {
  name: string;
  description: string;
  source_type: string;
  source: string;
  tag_list: string[];
  visibility: string;
}

export function lootTemplateFormValues(template?: LootTemplate): LootTemplateFormValues {
  return {
    name: template?.name ?? '',
    description: template?.description ?? '',
    source_type: template?.source_type ?? 'custom',
    source: template?.source ?? '',
    tag_list: template?.tag_list ?? [],
    visibility: template?.visibility ?? 'private',
  };
}

function toInput(values: LootTemplateFormValues): LootTemplateInput {
  return {
    name: values.name.trim(),
    description: values.description,
    source_type: lootSourceTypes.find((t) => t === values.source_type) ?? 'custom',
    source: values.source.trim(),
    tag_list: values.tag_list,
    visibility: templateVisibilities.find((v) => v === values.visibility) ?? 'private',
  };
}

const fields = ['name', 'description', 'source_type', 'source', 'tag_list', 'visibility'];

/**
 * The loot template form, for creating and editing: the contract's rules check it as it is sent, and the
 * server's VALIDATION_ERROR details land on their fields. A plan limit is the page's to say (its hint), once.
 */
export function LootTemplateForm({
  initial,
  submitLabel,
  onSubmit,
  onCancel,
  onOtherError,
  submitBlockedBy = null,
}: {
  initial: LootTemplateFormValues;
  submitLabel: string;
  onSubmit: (input: LootTemplateInput) => Promise<unknown>;
  onCancel: () => void;
  /** Called after a refusal this form does not show inline (a plan limit, toasted). */
  onOtherError?: (error: unknown) => void;
  /** The id of the element saying why nothing can be submitted now (a plan limit): the submit is disabled. */
  submitBlockedBy?: string | null;
}) {
  const form = useFocusFirstError(
    useForm<LootTemplateFormValues>({
      initialValues: initial,
      validate: validateWith(lootTemplateFormSchema),
      enhanceGetInputProps: markInvalidFields,
    }),
  );
  const [failure, setFailure] = useState<ApiError | null>(null);
  const leaveWithoutAsking = useUnsavedChanges(form.isDirty);
  const submit = form.onSubmit(
    async (values) => {
      setFailure(null);
      try {
        await leaveWithoutAsking(() => onSubmit(toInput(values)));
      } catch (error) {
        const errors = serverFieldErrors(error, fields, 'loot_template.');
        if (errors) form.setErrors(errors);
        else if (isApiError(error) && isPlanRefusal(error)) {
          // The request answers its refusals here (toast: false): a plan's in one toast with the way to
          // upgrade, not inline, since the page's hint already says the limit.
          toastPlanRefusal(error);
          onOtherError?.(error);
        } else if (isApiError(error)) setFailure(error);
        else {
          toastUnexplainedFailure(error, generalMessages.saveFailed);
          onOtherError?.(error);
        }
      }
    },
    toastMissingRequired<LootTemplateFormValues>(['name']),
  );
  return (
    <form onSubmit={submit} noValidate aria-label="Loot template">
      <Stack gap="md">
        <TextInput
          label="Name"
          placeholder="e.g., Goblin Boss Hoard"
          required
          {...form.getInputProps('name')}
        />
        <Textarea
          label="Description"
          placeholder="What the party finds, and how"
          autosize
          minRows={3}
          maxLength={5000}
          {...form.getInputProps('description')}
        />
        <SimpleGrid cols={{ base: 1, sm: 2 }}>
          <Select
            label="Source type"
            data={lootSourceTypeOptions}
            allowDeselect={false}
            comboboxProps={{ withinPortal: true }}
            {...form.getInputProps('source_type')}
          />
          <TextInput
            label="Source"
            description="Who or what carried it"
            placeholder="e.g., Goblin boss"
            maxLength={100}
            {...form.getInputProps('source')}
          />
        </SimpleGrid>
        <SimpleGrid cols={{ base: 1, sm: 2 }}>
          <TagsInput
            label="Tags"
            description="Type a tag, then Enter"
            clearable
            {...form.getInputProps('tag_list')}
          />
          <Select
            label="Visibility"
            description="Public templates can be found and copied by everyone"
            data={lootVisibilityOptions}
            allowDeselect={false}
            comboboxProps={{ withinPortal: true }}
            {...form.getInputProps('visibility')}
          />
        </SimpleGrid>
        {failure ? (
          <Alert color="red" variant="light" role="alert">
            {failure.details[0]?.message ?? failure.serverMessage ?? failure.message}
          </Alert>
        ) : null}
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
