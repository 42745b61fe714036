import {
  SHOP_DEFAULT_BUY_MODIFIER,
  SHOP_DEFAULT_SELL_MODIFIER,
  type ShopTemplate,
  shopMessages,
  shopPricingNotes,
  shopTags,
  shopTypes,
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
  Text,
  Textarea,
  TextInput,
} from '@mantine/core';
import { useForm } from '@mantine/form';
import { useState } from 'react';
import { NumberField } from '../../../components/number-field';
import { serverFieldErrors, useFocusFirstError } from '../../../lib/form-feedback';
import { toastMissingRequired } from '../../../lib/forms';
import { type ApiError, isApiError, toastUnexplainedFailure } from '../../../lib/http-client';
import { generalMessages } from '../../../lib/toast';
import { useUnsavedChanges } from '../../../lib/unsaved-changes';
import { isPlanRefusal, toastPlanRefusal } from '../../../lib/upgrade-link';
import type { ShopTemplateInput } from '../api/shops-api';
import { locationOptions, shopTypeOptions } from './shop-filters';

export interface ShopTemplateFormValues {
  name: string;
  description: string;
  owner: string;
  location: string;
  shop_type: string;
  buy_modifier: number | string;
  sell_modifier: number | string;
  default_restock_days: number | string;
  tag_list: string[];
  visibility: string;
}

export function shopTemplateFormValues(template?: ShopTemplate): ShopTemplateFormValues {
  return {
    name: template?.name ?? '',
    description: template?.description ?? '',
    owner: template?.owner ?? '',
    location: template?.location ?? '',
    shop_type: template?.shop_type ?? 'general',
    buy_modifier: template?.buy_modifier ?? SHOP_DEFAULT_BUY_MODIFIER,
    sell_modifier: template?.sell_modifier ?? SHOP_DEFAULT_SELL_MODIFIER,
    default_restock_days: template?.default_restock_days ?? 0,
    tag_list: template?.tag_list ?? [],
    visibility: template?.visibility ?? 'private',
  };
}

function toInput(values: ShopTemplateFormValues): ShopTemplateInput {
  return {
    name: values.name.trim(),
    description: values.description,
    owner: values.owner.trim(),
    location: values.location.trim(),
    shop_type: shopTypes.find((t) => t === values.shop_type) ?? 'general',
    buy_modifier: values.buy_modifier,
    sell_modifier: values.sell_modifier,
    default_restock_days: Number(values.default_restock_days) || null,
    tag_list: values.tag_list,
    visibility: templateVisibilities.find((v) => v === values.visibility) ?? 'private',
  };
}

const fields = [
  'name',
  'description',
  'owner',
  'location',
  'shop_type',
  'buy_modifier',
  'sell_modifier',
  'default_restock_days',
  'tag_list',
  'visibility',
];

const modifierRule = (message: string) => (value: number | string) => {
  const n = Number(value);
  return value === '' || Number.isNaN(n) || n < 0 || n > 10 ? message : null;
};

/** spec/02 §5 shop form: name 2 to 99 characters; modifiers 0 to 10; the server's answer lands on fields. */
export function ShopTemplateForm({
  initial,
  submitLabel,
  onSubmit,
  onCancel,
  onOtherError,
  submitBlockedBy = null,
}: {
  initial: ShopTemplateFormValues;
  submitLabel: string;
  onSubmit: (input: ShopTemplateInput) => Promise<unknown>;
  onCancel: () => void;
  /** Called after a refusal this form does not show inline (a plan limit, toasted). */
  onOtherError?: (error: unknown) => void;
  /** The id of the element saying why nothing can be submitted now (a plan limit): the submit is disabled. */
  submitBlockedBy?: string | null;
}) {
  const form = useFocusFirstError(
    useForm<ShopTemplateFormValues>({
      initialValues: initial,
      validate: {
        name: (name) => {
          const length = name.trim().length;
          if (length < 2) return shopMessages.nameTooShort;
          if (length >= 100) return shopMessages.nameTooLong;
          return null;
        },
        buy_modifier: modifierRule(shopMessages.buyModifierRange),
        sell_modifier: modifierRule(shopMessages.sellModifierRange),
      },
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
        const errors = serverFieldErrors(error, fields, 'shop_template.');
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
    toastMissingRequired<ShopTemplateFormValues>(['name']),
  );
  return (
    <form onSubmit={submit} noValidate>
      <Stack gap="md">
        <TextInput label="Shop name" required maxLength={99} {...form.getInputProps('name')} />
        <Textarea
          label="Description"
          autosize
          minRows={3}
          maxLength={5000}
          {...form.getInputProps('description')}
        />
        <SimpleGrid cols={{ base: 1, sm: 3 }}>
          <Select
            label="Shop type"
            data={shopTypeOptions}
            allowDeselect={false}
            comboboxProps={{ withinPortal: true }}
            {...form.getInputProps('shop_type')}
          />
          <TextInput
            label="Shopkeeper"
            placeholder="e.g., Old Marta"
            maxLength={100}
            {...form.getInputProps('owner')}
          />
          <Select
            label="Location"
            placeholder="Choose or type a place"
            data={
              initial.location && !locationOptions.some((o) => o.value === initial.location)
                ? [...locationOptions, { value: initial.location, label: initial.location }]
                : locationOptions
            }
            searchable
            clearable
            comboboxProps={{ withinPortal: true }}
            {...form.getInputProps('location')}
          />
        </SimpleGrid>
        <SimpleGrid cols={{ base: 1, sm: 3 }}>
          <NumberField
            label="Buy modifier"
            // Typed past the range, the value stays and the form says why (spec/02 §4), not silently 10.
            clampBehavior="none"
            description="What players pay, × item value"
            min={0}
            max={10}
            step={0.05}
            decimalScale={4}
            {...form.getInputProps('buy_modifier')}
          />
          <NumberField
            label="Sell modifier"
            clampBehavior="none"
            description="What the shop pays, × item value"
            min={0}
            max={10}
            step={0.05}
            decimalScale={4}
            {...form.getInputProps('sell_modifier')}
          />
          <NumberField
            label="Restock every (days)"
            description="0 = never"
            min={0}
            max={365}
            allowDecimal={false}
            allowNegative={false}
            {...form.getInputProps('default_restock_days')}
          />
        </SimpleGrid>
        <Text size="xs" c="dimmed" data-testid="sell-cap-note">
          {shopPricingNotes.sellCap}
        </Text>
        <SimpleGrid cols={{ base: 1, sm: 2 }}>
          <TagsInput
            label="Tags"
            description="Pick or type, then Enter"
            data={[...shopTags]}
            clearable
            comboboxProps={{ withinPortal: true }}
            {...form.getInputProps('tag_list')}
          />
          <Select
            label="Visibility"
            data={[
              { value: 'private', label: 'Private' },
              { value: 'unlisted', label: 'Unlisted' },
              { value: 'public', label: 'Public' },
            ]}
            allowDeselect={false}
            comboboxProps={{ withinPortal: true }}
            {...form.getInputProps('visibility')}
          />
        </SimpleGrid>
        {failure ? (
          <Alert color="red" variant="light" role="alert">
            {failure.serverMessage ?? failure.message}
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
