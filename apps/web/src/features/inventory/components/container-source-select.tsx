import { type Container, formatEnUs } from '@haversack/contracts';
import { type ComboboxItem, type ComboboxItemGroup, Select } from '@mantine/core';
import { type Ref, useRef } from 'react';
import { capacityLevel, formatPercent, percentUsed, unlimitedAmount } from '../../../components/capacity-bar';
import { useOptionsOnFirstUse } from '../../../lib/use-options-on-first-use';
import { formatWeight } from '../../../lib/weight';
import { containerLabel } from '../workspace-types';

/**
 * "Quiver (Aria) · 45% full · 2/20 slots" (spec/02 §2: percent full and slot counts), said as the capacity
 * bar says them; "over capacity" first when the container holds more than a limit the party tracks. A
 * limit the container does not have says so ("0 lbs (unlimited)"): "0 lbs · 0 slots" read as no room at all.
 */
export function sourceOptionLabel(container: Container): string {
  const { capacity } = container;
  const percent = percentUsed(capacity.used, capacity.max);
  const full =
    percent === null ? unlimitedAmount(formatWeight(capacity.used)) : `${formatPercent(percent)} full`;
  const slotsPercent = percentUsed(capacity.slots_used, capacity.slots_max);
  const slots =
    slotsPercent === null
      ? unlimitedAmount(`${formatEnUs(capacity.slots_used)} ${capacity.slots_used === 1 ? 'slot' : 'slots'}`)
      : `${formatEnUs(capacity.slots_used)}/${formatEnUs(capacity.slots_max ?? 0)} slots`;
  const over =
    (capacity.enforces.weight && percent !== null && capacityLevel(percent) === 'over') ||
    (capacity.enforces.slots && slotsPercent !== null && capacityLevel(slotsPercent) === 'over');
  return [containerLabel(container), ...(over ? ['over capacity'] : []), full, slots].join(' · ');
}

/**
 * The options of a container picker grouped by whose containers they are (a character, the party), owners
 * in the order they come. A long campaign's GM has hundreds of containers (review "bigdata" §6): with
 * `searchable`, typing a container's or its owner's name (each option names its owner) finds it.
 */
export function groupedByOwner<T extends ComboboxItem>(
  containers: Container[],
  option: (container: Container) => T,
): ComboboxItemGroup<T>[] {
  const groups = new Map<string, ComboboxItemGroup<T>>();
  for (const container of containers) {
    // Two owners of the same name share a heading; each option still says whose it is.
    const group = container.owner.name;
    const entry = groups.get(group) ?? { group, items: [] };
    entry.items.push(option(container));
    groups.set(group, entry);
  }
  return [...groups.values()];
}

/** What every container picker takes: typing filters its options, and says so when nothing matches. */
export const containerSearchProps = {
  searchable: true,
  nothingFoundMessage: 'No matching container',
} as const;

export function ContainerSourceSelect({
  containers,
  value,
  onChange,
  label = 'Source',
  ref,
}: {
  containers: Container[];
  value: string | null;
  onChange: (containerId: string) => void;
  label?: string;
  ref?: Ref<HTMLInputElement>;
}) {
  const { keepMounted, ...firstUse } = useOptionsOnFirstUse();
  const input = useRef<HTMLInputElement | null>(null);
  return (
    <Select
      {...firstUse}
      ref={(node: HTMLInputElement | null) => {
        input.current = node;
        if (typeof ref === 'function') ref(node);
        else if (ref) ref.current = node;
      }}
      label={label}
      data={groupedByOwner(containers, (c) => ({ value: c.id, label: sourceOptionLabel(c) }))}
      value={value}
      onChange={(next) => {
        if (next) onChange(next);
        // The field keeps the focus with its caret after the label it was given, scrolled to that end: "…Vex
        // Nightwhisper) · 79% full · 39/60 slots" hid which container it was (review "touch", Dual view).
        // Once the label is in, the caret goes to its start, and the field shows the container's name.
        requestAnimationFrame(() => {
          const field = input.current;
          if (!field || field !== document.activeElement) return;
          field.setSelectionRange(0, 0);
          field.scrollLeft = 0;
        });
      }}
      allowDeselect={false}
      placeholder="Choose a container"
      comboboxProps={{ withinPortal: true, keepMounted }}
      {...containerSearchProps}
    />
  );
}
