import { formatEnUs, type ItemInstance } from '@haversack/contracts';
import { Button, Group, Select, Stack, Text } from '@mantine/core';
import { useState } from 'react';
import { useSingleFlight } from '../../../lib/use-single-flight';
import { mergeFailed, useMergeItem } from '../hooks/use-inventory-actions';
import { type UnsavedForm, useUnsavedForm } from '../hooks/use-unsaved-form';
import { sheetComboboxProps } from '../lib/sheet-combobox';
import { RefusalAlert } from './refusal-alert';

/** "Arrow ×12" for the merge target select. */
export function stackLabel(stack: ItemInstance): string {
  return `${stack.name} ×${formatEnUs(stack.quantity)}`;
}

/** POST item_instances/{id}/merge: this stack joins another stack of the same item in the container. */
export function MergeItemForm({
  item,
  targets,
  unsaved,
  onDone,
  onCancel = onDone,
}: {
  item: ItemInstance;
  /** Other stacks of the same template, without overrides, in the same container. */
  targets: ItemInstance[];
  unsaved?: UnsavedForm;
  onDone: () => void;
  /** Cancel: leaves the form without saving; `onDone` when not given. */
  onCancel?: () => void;
}) {
  const [initialTarget] = useState(targets[0]?.id ?? null);
  const [target, setTarget] = useState<string | null>(initialTarget);
  useUnsavedForm(() => target !== initialTarget, unsaved);
  const merge = useMergeItem(item);
  const once = useSingleFlight();
  return (
    <form
      onSubmit={(event) => {
        event.preventDefault();
        if (target) once(() => merge.mutateAsync(target, { onSuccess: onDone }));
      }}
    >
      <Stack gap="sm">
        <Text size="sm">
          The {formatEnUs(item.quantity)} in this stack join the stack you choose; this stack then disappears.
        </Text>
        <Select
          label="Stack to merge with"
          data={targets.map((stack) => ({ value: stack.id, label: stackLabel(stack) }))}
          value={target}
          onChange={setTarget}
          allowDeselect={false}
          placeholder="Choose a stack"
          nothingFoundMessage="No other stack"
          comboboxProps={sheetComboboxProps}
        />
        {merge.isError ? <RefusalAlert error={merge.error} fallback={mergeFailed} /> : null}
        <Group justify="flex-end" gap="sm">
          <Button variant="default" onClick={onCancel}>
            Cancel
          </Button>
          <Button type="submit" disabled={!target || merge.isPending} loading={merge.isPending}>
            Merge Stacks
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
