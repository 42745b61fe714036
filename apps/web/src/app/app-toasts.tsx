import { useMediaQuery } from '@mantine/hooks';
import { useState } from 'react';
import { usePhone } from '../lib/use-phone';
import { DeferredNotifications } from './deferred-notifications';

/**
 * Where the app's toasts open. From 1024 px up (spec/02 §9's desktop) at the bottom right: at the top they
 * covered the page header's action buttons (New Container, Share) while they lasted. On phones and tablets
 * at the top, just below the 60 px header (global.css): the transfer queue bar sticks to the bottom of the
 * screen there, and its Process Queue is what a toast's Undo follows. A phone shows fewer at once.
 * They stack above modals (z-index 200) but under dropdowns (300), so a list that opens upwards on a phone
 * (the transfer queue's Destination) is never hidden behind the toast that asked for it.
 */
export function AppToasts() {
  // Known at the first render (no server rendering here): measured in an effect, a phone would draw the
  // whole app a second time, synchronously, right after its first screen (issue 13 §1).
  const phone = usePhone();
  const desktop = useMediaQuery('(min-width: 64em)', undefined, { getInitialValueInEffect: false });
  // A live region is listened to only once it is in the page, for what changes in it afterwards: a toast
  // area drawn with the first toast already inside (DeferredNotifications) might never be read. So the
  // toasts are drawn into this region, which is in the page from the start; each toast is itself a status
  // (politely read) or an alert (failures and warnings, read at once), lib/toast.ts.
  const [region, setRegion] = useState<HTMLDivElement | null>(null);
  return (
    <div ref={setRegion} aria-live="polite" data-testid="live-toasts">
      {region ? (
        <DeferredNotifications
          className="haversack-toasts"
          position={desktop ? 'bottom-right' : 'top-right'}
          limit={phone ? 2 : 5}
          zIndex={250}
          portalProps={{ target: region }}
        />
      ) : null}
    </div>
  );
}
