import { useCallback, useEffect, useRef } from 'react';

/**
 * The forms on screen that would lose changes if the user left now. React Router allows one blocker per
 * router, so forms register here and one guard (components/unsaved-changes-guard.tsx) asks for them all.
 */
const unsavedForms = new Set<() => boolean>();

/** The dialog that asks before leaving; loaded with the first form that registers, so it is there when asked. */
export function loadUnsavedChangesDialog() {
  return import('../components/confirm-dialog');
}

export function hasUnsavedChanges(): boolean {
  for (const isDirty of unsavedForms) if (isDirty()) return true;
  return false;
}

/**
 * The changes sent and not yet answered (the query client's mutations note theirs): closing or reloading
 * the tab now would leave the player not knowing whether they were made, so the guard asks first.
 */
const changesUnderWay = new Set<object>();

export function noteChangeUnderWay(change: object, underWay: boolean): void {
  if (underWay) changesUnderWay.add(change);
  else changesUnderWay.delete(change);
}

export function hasChangeUnderWay(): boolean {
  return changesUnderWay.size > 0;
}

/**
 * spec/01 §8 "You have unsaved changes.": registers a form whose changes leaving the page would lose.
 * `isDirty` is read when the user tries to leave (pass `form.isDirty`). Run the save, and Cancel, through
 * the returned function: while it runs the form does not hold the user back, so a save that ends by
 * navigating away (to the created character) and an explicit Cancel are not asked about.
 */
export function useUnsavedChanges(isDirty: () => boolean): <T>(leave: () => T | Promise<T>) => Promise<T> {
  const leaving = useRef(false);
  useEffect(() => {
    const check = () => !leaving.current && isDirty();
    unsavedForms.add(check);
    loadUnsavedChangesDialog().catch(() => undefined);
    return () => {
      unsavedForms.delete(check);
    };
  }, [isDirty]);
  return useCallback(async <T>(leave: () => T | Promise<T>) => {
    leaving.current = true;
    try {
      return await leave();
    } finally {
      leaving.current = false;
    }
  }, []);
}
