import { type Container, formatEnUs, type ItemInstance } from '@haversack/contracts';
import { Box, Drawer, Modal, Text } from '@mantine/core';
import { useWindowEvent } from '@mantine/hooks';
import { useRef, useState } from 'react';
import type { DeviceClass } from '../hooks/use-device-class';
import { useDiscardQuestion } from '../hooks/use-discard-question';
import type { ItemAbout, LootSource } from '../workspace-types';
import { ItemDetailBody } from './item-detail-body';
import { LootItemBody } from './take-loot-form';

/** spec/02 §9: a 50 px downward swipe closes the bottom sheet. */
export const SHEET_SWIPE_PX = 50;

function SheetHandle({ onSwipeDown }: { onSwipeDown: () => void }) {
  const start = useRef<number | null>(null);
  return (
    <Box
      aria-hidden="true"
      data-testid="sheet-handle"
      py="xs"
      style={{ touchAction: 'none', cursor: 'grab' }}
      onPointerDown={(event) => {
        start.current = event.clientY;
      }}
      onPointerUp={(event) => {
        if (start.current !== null && event.clientY - start.current >= SHEET_SWIPE_PX) onSwipeDown();
        start.current = null;
      }}
    >
      <Box mx="auto" w={40} h={4} bg="gray.5" style={{ borderRadius: 2 }} />
    </Box>
  );
}

/**
 * Escape for the item's dialog, with Mantine's checks (not while typing in an input method, nor from an
 * open select's list). Drawn before the dialogs, so that it hears Escape before them: a browser runs
 * React's work between one window listener and the next, and one heard after the destroy confirmation or
 * the unsaved-changes question had closed on the same Escape would take it for a second one.
 */
function EscapeListener({ onEscape }: { onEscape: () => void }) {
  useWindowEvent(
    'keydown',
    (event) => {
      if (event.key !== 'Escape' || event.isComposing) return;
      const target = event.target instanceof Element ? event.target : null;
      if (target?.getAttribute('data-mantine-stop-propagation') === 'true') return;
      onEscape();
    },
    { capture: true },
  );
  return null;
}

/**
 * The item detail modal on desktop, a bottom sheet (Drawer at the bottom) on phones and tablets. A loot
 * stack's offers Take instead of edit, split and destroy.
 */
export function ItemDetail({
  item,
  about = null,
  loot = null,
  lootGone = false,
  device,
  canAct,
  destinations,
  lootDestinations = [],
  onAddToQueue,
  onClose,
}: {
  item: ItemInstance | null;
  /** What the item is: its template's description and page (useOpenItem), once read. */
  about?: ItemAbout | null;
  /** Set when the item is a stack of a loot (the Loot tab). */
  loot?: LootSource | null;
  /** The loot stack has left its loot since it was opened. */
  lootGone?: boolean;
  device: DeviceClass;
  canAct: boolean;
  destinations: Container[];
  /** Where a loot stack may be taken. */
  lootDestinations?: Container[];
  onAddToQueue?: (item: ItemInstance) => void;
  onClose: () => void;
}) {
  // Every open Mantine dialog closes on an Escape pressed anywhere in the window, so one Escape closed the
  // destroy confirmation and this dialog under it. While the confirmation is open, Escape is its alone, and
  // its focus goes back to the Destroy button.
  const [confirming, setConfirming] = useState(false);
  if (item === null && confirming) setConfirming(false);
  // A tablet turned across 1024 px while the item is open would swap the sheet for the modal, and the swap
  // remounts the body: what was typed in Edit, Split, Transfer or Give would be lost. The shape chosen when
  // the item opened stays until it closes.
  const shapeForDevice = device === 'desktop' ? 'modal' : 'sheet';
  const [shape, setShape] = useState(shapeForDevice);
  if (item === null && shape !== shapeForDevice) setShape(shapeForDevice);
  // spec/01 §8 "You have unsaved changes.": closing the item (the close button, a click outside, a swipe)
  // with something typed in one of its forms and not saved asks first, as leaving a page with a changed
  // form does. Escape backs out one level: from a form to the item (asking first when something was typed
  // there, and Discard changes then leaves only the form), from the item to the page. A form's Cancel is
  // that Escape: it leaves the form alone, asking first too, as spec/02 §4's "then save or cancel" returns
  // an edit to the item's view.
  const unsaved = useRef<(() => boolean) | null>(null);
  const formLevel = useRef<(() => void) | null>(null);
  const { asking, ask, dismiss, question: unsavedQuestion } = useDiscardQuestion();
  if (item === null && asking) dismiss();
  const closeNow = () => {
    setConfirming(false);
    dismiss();
    onClose();
  };
  const close = () => {
    if (unsaved.current?.()) ask(closeNow);
    else closeNow();
  };
  const backOut = () => {
    const back = formLevel.current;
    if (!back) close();
    else if (unsaved.current?.()) ask(back);
    else back();
  };
  // Mantine's own Escape (closeOnEscape) closes the whole dialog; this one knows the form's level.
  const onEscape = () => {
    if (item !== null && !confirming && !asking) backOut();
  };
  // The whole name, wrapping: this dialog is where an item is read whole, and a clamped name could be read
  // only in Edit on a phone, where the tooltip a card's clamped name has never shows.
  const title = item ? (
    <Text
      component="span"
      inherit
      lh={1.3}
      data-testid="item-dialog-title"
      style={{ overflowWrap: 'anywhere' }}
    >{`${item.name}${item.quantity > 1 ? ` ×${formatEnUs(item.quantity)}` : ''}`}</Text>
  ) : (
    ''
  );
  const body = !item ? null : loot ? (
    <LootItemBody
      key={item.id}
      item={item}
      about={about}
      loot={loot}
      gone={lootGone}
      destinations={lootDestinations}
      unsaved={unsaved}
      onAddToQueue={onAddToQueue ? () => onAddToQueue(item) : undefined}
      onClose={onClose}
    />
  ) : (
    <ItemDetailBody
      key={item.id}
      item={item}
      about={about}
      canAct={canAct}
      destinations={destinations}
      onAddToQueue={onAddToQueue ? () => onAddToQueue(item) : undefined}
      onClose={closeNow}
      onConfirmingChange={setConfirming}
      unsaved={unsaved}
      formLevel={formLevel}
      onCancelForm={backOut}
    />
  );
  if (shape === 'modal') {
    return (
      <>
        <EscapeListener onEscape={onEscape} />
        <Modal
          opened={item !== null}
          onClose={close}
          closeOnEscape={false}
          title={title}
          size="lg"
          closeButtonProps={{ 'aria-label': 'Close' }}
          centered
        >
          {body}
        </Modal>
        {unsavedQuestion}
      </>
    );
  }
  return (
    <>
      <EscapeListener onEscape={onEscape} />
      {/* Put together by hand, so that the handle sits at the sheet's top edge, above its title. */}
      <Drawer.Root
        opened={item !== null}
        onClose={close}
        closeOnEscape={false}
        position="bottom"
        size="auto"
        styles={{ content: { borderTopLeftRadius: 16, borderTopRightRadius: 16, maxHeight: '90dvh' } }}
      >
        <Drawer.Overlay />
        <Drawer.Content>
          <SheetHandle onSwipeDown={close} />
          <Drawer.Header pt={0}>
            <Drawer.Title>{title}</Drawer.Title>
            <Drawer.CloseButton aria-label="Close" />
          </Drawer.Header>
          <Drawer.Body>{body}</Drawer.Body>
        </Drawer.Content>
      </Drawer.Root>
      {unsavedQuestion}
    </>
  );
}
