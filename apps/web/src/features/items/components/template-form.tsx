import {
  currencies,
  ITEM_WEIGHT_DECIMALS,
  type ItemTemplate,
  isAttunable,
  itemWeightError,
  MAX_ITEM_VALUE,
  MAX_STACK_QUANTITY,
  templateVisibilities,
} from '@haversack/contracts';
import { Button, Checkbox, Group, Select, SimpleGrid, Stack, Textarea, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { NumberField } from '../../../components/number-field';
import { serverFieldErrors, useFocusFirstError } from '../../../lib/form-feedback';
import { formatCount } from '../../../lib/format';
import { toastMissingRequired } from '../../../lib/forms';
import { isApiError, toastUnexplainedFailure } from '../../../lib/http-client';
import { generalMessages } from '../../../lib/toast';
import { useUnsavedChanges } from '../../../lib/unsaved-changes';
import { weightLabel } from '../../../lib/weight';
import type { ItemTemplateInput } from '../api/item-templates-api';
import { rarityOptions } from '../rarities';

const currencyNames: Record<(typeof currencies)[number], string> = {
  cp: 'Copper (cp)',
  sp: 'Silver (sp)',
  ep: 'Electrum (ep)',
  gp: 'Gold (gp)',
  pp: 'Platinum (pp)',
};

export interface TemplateFormValues {
  name: string;
  description: string;
  weight: number | string;
  base_value: number | string;
  currency: string;
  visibility: string;
  stack_size: number | string;
  rarity: string | null;
  requires_attunement: boolean;
  category: string;
  tags: string;
}

export function templateFormValues(template?: ItemTemplate): TemplateFormValues {
  const rarity = template?.metadata.rarity;
  return {
    name: template?.name ?? '',
    description: template?.description ?? '',
    weight: template?.weight ?? 0,
    base_value: template?.base_value ?? 0,
    currency: template?.currency ?? 'gp',
    visibility: template?.visibility ?? 'private',
    stack_size: template?.stack_size ?? 1,
    rarity: typeof rarity === 'string' && rarity !== '' ? rarity : null,
    // A homebrew template saved before it could say was attunable when magic: the box starts as it was.
    requires_attunement: template ? isAttunable(template) : false,
    category: template?.category ?? '',
    tags: (template?.tags ?? []).filter((t) => !t.startsWith('category:')).join(', '),
  };
}

function toInput(values: TemplateFormValues): ItemTemplateInput {
  const currency = currencies.find((c) => c === values.currency) ?? 'gp';
  const visibility = templateVisibilities.find((v) => v === values.visibility) ?? 'private';
  return {
    name: values.name.trim(),
    description: values.description,
    weight: values.weight,
    base_value: values.base_value,
    currency,
    visibility,
    stack_size: values.stack_size,
    metadata: {
      rarity: values.rarity,
      requires_attunement: values.requires_attunement,
      category: values.category.trim() || null,
      currency,
    },
    tags: values.tags,
  };
}

/**
 * What an edit changed, against the values the form opened with: only those fields, and only the metadata
 * keys that differ (the server merges metadata key by key). The form fills some fields with its own
 * reading of the template (attunement guessed from a rarity, an empty category); sent back unasked, they
 * changed the template, and a template other players hold refused even a tags-only edit.
 */
export function changedFields(
  initial: TemplateFormValues,
  input: ItemTemplateInput,
): Partial<ItemTemplateInput> {
  const before = toInput(initial);
  const changes: Partial<ItemTemplateInput> = {};
  for (const key of Object.keys(input) as (keyof ItemTemplateInput)[]) {
    if (key === 'metadata') continue;
    if (String(input[key]) !== String(before[key])) Object.assign(changes, { [key]: input[key] });
  }
  const metadata = Object.fromEntries(
    Object.entries(input.metadata ?? {}).filter(
      ([key, value]) => value !== (before.metadata as Record<string, unknown> | undefined)?.[key],
    ),
  );
  if (Object.keys(metadata).length > 0) changes.metadata = metadata as ItemTemplateInput['metadata'];
  return changes;
}

const fields = [
  'name',
  'description',
  'weight',
  'base_value',
  'currency',
  'visibility',
  'stack_size',
  'tags',
];

/** spec/02 §3 Item template form; the server's validation lands on the fields (spec/02 §5). */
export function TemplateForm({
  initial,
  submitLabel,
  onSubmit,
  onCancel,
  onOtherError,
  submitBlockedBy = null,
  heldByOthers = false,
}: {
  initial: TemplateFormValues;
  submitLabel: string;
  onSubmit: (input: ItemTemplateInput) => Promise<unknown>;
  onCancel: () => void;
  /** Called with a refusal this form does not place on a field (a plan limit: the client's toast said it). */
  onOtherError?: (error: unknown) => void;
  /** The id of the element saying why nothing can be submitted now (a plan limit): the submit is disabled. */
  submitBlockedBy?: string | null;
  /**
   * Other players hold items made from it (the template's `held_by_others`): the fields the server keeps
   * under them (name, description, weight, value, currency, stack size, rarity, attunement, category) are
   * disabled, and it cannot become private. Tags and public or unlisted stay open.
   */
  heldByOthers?: boolean;
}) {
  const form = useFocusFirstError(
    useForm<TemplateFormValues>({
      initialValues: initial,
      validate: {
        name: (name) => (name.trim() === '' ? 'Template name is required' : null),
        // The contract's own words, said before sending: a number the server would refuse is refused here,
        // never clamped, rounded or cut to one it takes without a word.
        // A weight the form opened with is not the user's to correct (the API once took 0.005).
        weight: (weight) => (Number(weight) === Number(initial.weight) ? null : itemWeightError(weight)),
        base_value: (value) =>
          !Number.isInteger(Number(value))
            ? 'Value must be a whole number'
            : Number(value) < 0
              ? 'Value cannot be negative'
              : Number(value) > MAX_ITEM_VALUE
                ? `Value can be at most ${formatCount(MAX_ITEM_VALUE)}`
                : null,
        stack_size: (size) =>
          !Number.isInteger(Number(size))
            ? 'Stack size must be a whole number'
            : Number(size) < 0
              ? 'Stack size cannot be negative (0 means unlimited)'
              : Number(size) > MAX_STACK_QUANTITY
                ? `Stack size can be at most ${formatCount(MAX_STACK_QUANTITY)}`
                : null,
      },
    }),
  );
  const leaveWithoutAsking = useUnsavedChanges(form.isDirty);
  const submit = form.onSubmit(
    async (values) => {
      try {
        await leaveWithoutAsking(() => onSubmit(toInput(values)));
      } catch (error) {
        const errors = serverFieldErrors(
          error,
          [...fields, 'metadata.rarity', 'metadata.category'],
          'item_template.',
        );
        if (errors) {
          form.setErrors({
            ...errors,
            rarity: errors['metadata.rarity'],
            category: errors['metadata.category'],
          });
        } else if (isApiError(error) && error.code === 'VALIDATION_ERROR') {
          // Not toasted by the client (spec/01 §8) and on no field of this form: the form's own alert says it.
          form.setErrors({ form: error.serverMessage ?? error.message });
        } else {
          toastUnexplainedFailure(error, generalMessages.saveFailed);
          onOtherError?.(error);
        }
      }
    },
    toastMissingRequired<TemplateFormValues>(['name']),
  );
  return (
    <form onSubmit={submit} noValidate>
      <Stack gap="md">
        <TextInput
          label="Name"
          required
          maxLength={200}
          disabled={heldByOthers}
          {...form.getInputProps('name')}
        />
        {/* A description may run to 10,000 characters: past a dozen rows it scrolls inside its box. */}
        <Textarea
          label="Description"
          disabled={heldByOthers}
          autosize
          minRows={3}
          maxRows={12}
          maxLength={10_000}
          {...form.getInputProps('description')}
        />
        <SimpleGrid cols={{ base: 1, sm: 3 }}>
          {/* No clamping nor decimalScale: they changed -3 to 0 and 0.005 to 0.00 silently; the rules say why.
              A fourth decimal is refused as typed (weights are kept to the thousandth); spec/02 §3's 0.01 is
              the arrows' step, not the weight's precision. */}
          <NumberField
            label={weightLabel('Weight')}
            min={0}
            step={0.01}
            maxDecimals={ITEM_WEIGHT_DECIMALS}
            clampBehavior="none"
            disabled={heldByOthers}
            {...form.getInputProps('weight')}
          />
          <NumberField
            label="Base value"
            disabled={heldByOthers}
            min={0}
            max={MAX_ITEM_VALUE}
            clampBehavior="none"
            // A whole number: "1.000" (one thousand, to a German user) was read as 1 and saved as 1 gp
            // without a word (locales review, M1). The point is refused, saying so, and 1,000 is what stays.
            allowDecimal={false}
            thousandSeparator=","
            {...form.getInputProps('base_value')}
          />
          <Select
            label="Currency"
            disabled={heldByOthers}
            data={currencies.map((c) => ({ value: c, label: currencyNames[c] }))}
            allowDeselect={false}
            {...form.getInputProps('currency')}
          />
        </SimpleGrid>
        <SimpleGrid cols={{ base: 1, sm: 3 }}>
          <Select
            label="Visibility"
            data={[
              // Held by others, it may be taken off the marketplace (unlisted) but not from its holders.
              {
                value: 'private',
                label: 'Private',
                disabled: heldByOthers && initial.visibility !== 'private',
              },
              { value: 'unlisted', label: 'Unlisted' },
              { value: 'public', label: 'Public' },
            ]}
            allowDeselect={false}
            {...form.getInputProps('visibility')}
          />
          <NumberField
            label="Stack size"
            description="0 = unlimited"
            disabled={heldByOthers}
            min={0}
            max={MAX_STACK_QUANTITY}
            clampBehavior="none"
            allowDecimal={false}
            thousandSeparator=","
            allowNegative={false}
            {...form.getInputProps('stack_size')}
          />
          <Select
            label="Rarity"
            disabled={heldByOthers}
            data={rarityOptions}
            clearable
            placeholder="None"
            {...form.getInputProps('rarity')}
          />
        </SimpleGrid>
        <Checkbox
          label="Requires attunement"
          disabled={heldByOthers}
          description="A character can be attuned to at most 3 such items at a time."
          {...form.getInputProps('requires_attunement', { type: 'checkbox' })}
        />
        <SimpleGrid cols={{ base: 1, sm: 2 }}>
          <TextInput
            label="Category"
            placeholder="e.g., weapon"
            disabled={heldByOthers}
            {...form.getInputProps('category')}
          />
          <TextInput
            label="Tags"
            description="Comma-separated"
            placeholder="e.g., martial, melee"
            {...form.getInputProps('tags')}
          />
        </SimpleGrid>
        {form.errors.form ? <div role="alert">{form.errors.form}</div> : null}
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
