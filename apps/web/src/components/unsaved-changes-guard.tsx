import { useWindowEvent } from '@mantine/hooks';
import { useState } from 'react';
import { type BlockerFunction, useBlocker } from 'react-router';
import { generalMessages } from '../lib/toast';
import { hasChangeUnderWay, hasUnsavedChanges, loadUnsavedChangesDialog } from '../lib/unsaved-changes';
import { deferredComponent } from './deferred-component';

// The dialog (Mantine's Modal, with its scroll area and focus trap) loads only when a form that can hold
// changes is on screen (lib/unsaved-changes.ts starts it then), so pages without one, /login first of all,
// do not carry it (issue 13 §1). Not React.lazy: this sits at the root, above every page's error panel, and a
// download that failed (the server down during a deploy) threw the app's error page over the unsaved form;
// deferred, it draws once the code arrives (tried again every few seconds, and when back online).
const ConfirmDialog = deferredComponent(() => loadUnsavedChangesDialog().then((m) => m.ConfirmDialog));

// Moving within the page (its query string, a tab in the URL) keeps the form on screen: only leaving it asks.
const leavesThePage: BlockerFunction = ({ currentLocation, nextLocation }) =>
  currentLocation.pathname !== nextLocation.pathname && hasUnsavedChanges();

/**
 * spec/01 §8 "You have unsaved changes.": leaving a page whose form has changes asks first, in a dialog
 * (a toast cannot hold the keyboard's focus for the choice). Closing or reloading the tab gets the
 * browser's own question, as it does while a change is sent and not yet answered (leaving then, the player
 * would not know whether it was made). Mounted once, at the root: React Router allows one blocker.
 */
export function UnsavedChangesGuard() {
  const blocker = useBlocker(leavesThePage);
  const blocked = blocker.state === 'blocked';
  // Once shown, the dialog stays mounted so that it can play its closing transition.
  const [asked, setAsked] = useState(false);
  if (blocked && !asked) setAsked(true);

  useWindowEvent('beforeunload', (event) => {
    if (hasUnsavedChanges() || hasChangeUnderWay()) event.preventDefault();
  });

  if (!asked) return null;
  return (
    <ConfirmDialog
      opened={blocked}
      title="Leave this page?"
      message={generalMessages.unsavedChanges}
      confirmLabel="Leave anyway"
      cancelLabel="Stay on page"
      // Leave anyway goes on; Stay, Escape, the close button or a click outside call the navigation off.
      onConfirm={() => blocker.proceed?.()}
      onClose={() => blocker.reset?.()}
    />
  );
}
