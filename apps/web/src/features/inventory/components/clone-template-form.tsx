import type { ItemInstance } from '@haversack/contracts';
import { Button, Group, Stack, Text, TextInput } from '@mantine/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Link } from 'react-router';
import { toast } from '../../../lib/toast';
import { createItemTemplate, itemTemplateKeys } from '../../items/api/item-templates-api';
import { type UnsavedForm, useUnsavedForm } from '../hooks/use-unsaved-form';

function metadataText(item: ItemInstance, key: string): string | null {
  const value = item.item_template.metadata[key];
  return typeof value === 'string' && value !== '' ? value : null;
}

/** spec/02 §2/§5 "Clone to template": a private template from the item's facts; name required. */
export function CloneTemplateForm({
  item,
  unsaved,
  onDone,
  onCancel = onDone,
}: {
  item: ItemInstance;
  unsaved?: UnsavedForm;
  onDone: () => void;
  /** Cancel: leaves the form without saving; `onDone` when not given. */
  onCancel?: () => void;
}) {
  const queryClient = useQueryClient();
  const [name, setName] = useState(item.name);
  const [createdId, setCreatedId] = useState<string | null>(null);
  useUnsavedForm(() => createdId === null && name !== item.name, unsaved);
  const clone = useMutation({
    mutationFn: () =>
      createItemTemplate(
        {
          name: name.trim(),
          description:
            typeof item.instance_data.description_override === 'string'
              ? item.instance_data.description_override
              : '',
          weight: item.weight,
          base_value: item.value,
          currency: item.currency,
          visibility: 'private',
          stack_size: item.item_template.stack_size,
          metadata: {
            rarity: metadataText(item, 'rarity'),
            category: metadataText(item, 'category'),
            currency: item.currency,
          },
          tags: item.tags,
        },
        { toast: false },
      ),
    onSuccess: async (template) => {
      toast.success(`Template "${template.name}" created`);
      setCreatedId(template.id);
      await queryClient.invalidateQueries({ queryKey: itemTemplateKeys.all });
    },
    onError: (error) =>
      // spec/02 §8 Templates: the server's error, else "Failed to create item template".
      toast.error(error instanceof Error && error.message ? error.message : 'Failed to create item template'),
  });
  if (createdId) {
    return (
      <Stack gap="sm">
        <Text size="sm">The template is saved in your items.</Text>
        <Group justify="flex-end" gap="sm">
          <Button variant="default" onClick={onDone}>
            Close
          </Button>
          <Button component={Link} to={`/items/templates/${createdId}`}>
            Open template
          </Button>
        </Group>
      </Stack>
    );
  }
  return (
    <form
      onSubmit={(event) => {
        event.preventDefault();
        if (name.trim()) clone.mutate();
      }}
    >
      <Stack gap="sm">
        <Text size="sm">Make a private item template from this item's weight, value and tags.</Text>
        <TextInput
          label="Template name"
          required
          value={name}
          onChange={(event) => setName(event.currentTarget.value)}
          error={name.trim() === '' ? 'Template name is required' : undefined}
        />
        <Group justify="flex-end" gap="sm">
          <Button variant="default" onClick={onCancel}>
            Cancel
          </Button>
          <Button type="submit" disabled={name.trim() === '' || clone.isPending} loading={clone.isPending}>
            Create Template
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
