import { screen, within } from '@testing-library/react';
import type { UserEvent } from '@testing-library/user-event';
import { expect, vi } from 'vitest';

/** The option list of an open picker, not another Select's kept in the page. */
function listOf(picker: HTMLElement): HTMLElement {
  const list = document.getElementById(picker.getAttribute('aria-controls') ?? '');
  if (!list) throw new Error('The picker has no open option list');
  return list;
}

/** The headings of an open picker's option groups, in order (Mantine names each group by a label). */
export function optionGroupNames(picker: HTMLElement): (string | null | undefined)[] {
  return within(listOf(picker))
    .queryAllByRole('group', { hidden: true })
    .map((group) => document.getElementById(group.getAttribute('aria-labelledby') ?? '')?.textContent);
}

/**
 * A container picker as a long campaign's GM uses it (review "bigdata" §6): open, the options are grouped
 * by owner; typing (over whatever it shows) leaves only the containers whose label matches, and ArrowDown
 * then Enter picks the first of them. Returns the picker, to check what it holds after.
 */
export async function pickContainerByTyping(
  user: UserEvent,
  {
    label,
    groups,
    typed,
    matching,
  }: {
    /** The picker's accessible name. */
    label: string;
    /** The owners' headings expected, in order, when the list opens. */
    groups: string[];
    typed: string;
    /** The start of each option left after typing (the text before any " · "), in order. */
    matching: string[];
  },
): Promise<HTMLElement> {
  const picker = screen.getByRole('combobox', { name: label });
  await user.click(picker);
  await vi.waitFor(() => expect(optionGroupNames(picker)).toEqual(groups));
  await user.clear(picker);
  await user.type(picker, typed);
  await vi.waitFor(() =>
    expect(
      within(listOf(picker))
        .getAllByRole('option', { hidden: true })
        .map((o) => (o.textContent ?? '').split(' · ')[0]),
    ).toEqual(matching),
  );
  await user.keyboard('{ArrowDown}{Enter}');
  return picker;
}
