import { type RefObject, useCallback, useEffect, useRef } from 'react';
import { useUnsavedChanges } from '../../../lib/unsaved-changes';

/** Where an item's dialog reads whether the form open in it would lose what was typed. */
export type UnsavedForm = RefObject<(() => boolean) | null>;

/**
 * spec/01 §8 "You have unsaved changes.": a form of the item's dialog (Edit, Split, Transfer, Give to...,
 * Merge, Clone to template, a loot stack's Take) with something typed asks before leaving the page, closing
 * the item, or an Escape or the form's Cancel throws it away. `isDirty` is read when asked, with what the
 * form holds then.
 */
export function useUnsavedForm(isDirty: () => boolean, unsaved?: UnsavedForm): void {
  const latest = useRef(isDirty);
  latest.current = isDirty;
  const check = useCallback(() => latest.current(), []);
  useUnsavedChanges(check);
  useEffect(() => {
    if (!unsaved) return;
    unsaved.current = check;
    return () => {
      if (unsaved.current === check) unsaved.current = null;
    };
  }, [unsaved, check]);
}
