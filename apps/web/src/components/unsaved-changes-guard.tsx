import { Text } from '@mantine/core';
import { useWindowEvent } from '@mantine/hooks';
import { modals } from '@mantine/modals';
import { useEffect, useRef } from 'react';
import { type BlockerFunction, useBlocker } from 'react-router';
import { generalMessages } from '../lib/toast';
import { hasUnsavedChanges } from '../lib/unsaved-changes';

const modalId = 'unsaved-changes';

// Moving within the page (its query string, a tab in the URL) keeps the form on screen: only leaving it asks.
const leavesThePage: BlockerFunction = ({ currentLocation, nextLocation }) =>
  currentLocation.pathname !== nextLocation.pathname && hasUnsavedChanges();

/**
 * spec/01 §8 "You have unsaved changes.": leaving a page whose form has changes asks first, in a dialog
 * of the modal system (a toast cannot hold the keyboard's focus for the choice). Closing or reloading the
 * tab gets the browser's own question. Mounted once, at the root: React Router allows one blocker.
 */
export function UnsavedChangesGuard() {
  const blocker = useBlocker(leavesThePage);
  const latest = useRef(blocker);
  useEffect(() => {
    latest.current = blocker;
  });

  useEffect(() => {
    if (blocker.state !== 'blocked') return;
    let answered = false;
    modals.openConfirmModal({
      modalId,
      title: 'Leave this page?',
      centered: true,
      children: <Text size="sm">{generalMessages.unsavedChanges}</Text>,
      labels: { confirm: 'Leave anyway', cancel: 'Stay on page' },
      // red.9: white on Mantine's default red is about 3.7:1, under WCAG AA (as in ConfirmDialog).
      confirmProps: { color: 'red.9' },
      closeButtonProps: { 'aria-label': 'Close' },
      onConfirm: () => {
        answered = true;
        latest.current.proceed?.();
      },
      // Stay, Escape, the close button or a click outside: the navigation is called off.
      onClose: () => {
        if (!answered && latest.current.state === 'blocked') latest.current.reset();
      },
    });
    return () => modals.close(modalId);
  }, [blocker.state]);

  useWindowEvent('beforeunload', (event) => {
    if (hasUnsavedChanges()) event.preventDefault();
  });

  return null;
}
