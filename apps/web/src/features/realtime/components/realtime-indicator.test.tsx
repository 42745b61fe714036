import { MantineProvider } from '@mantine/core';
import { act, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { RealtimeStatus } from '../party-channels';
import {
  RealtimeIndicator,
  realtimeActiveLabel,
  realtimeOfflineLabel,
  realtimePausedLabel,
} from './realtime-indicator';

function renderStatus(status: RealtimeStatus) {
  const view = render(
    <MantineProvider>
      <RealtimeIndicator status={status} />
    </MantineProvider>,
  );
  return (next: RealtimeStatus) =>
    view.rerender(
      <MantineProvider>
        <RealtimeIndicator status={next} />
      </MantineProvider>,
    );
}

afterEach(() => vi.restoreAllMocks());

describe('RealtimeIndicator', () => {
  it('shows nothing while the first connection is made, then that updates are live', () => {
    const update = renderStatus('connecting');
    expect(screen.getByRole('status')).toBeEmptyDOMElement();
    update('connected');
    expect(screen.getByRole('status')).toHaveTextContent(realtimeActiveLabel);
  });

  it('says live updates are paused when a connection it had is lost, until it is back', () => {
    const update = renderStatus('connected');
    update('connecting');
    expect(screen.getByRole('status')).toHaveTextContent(realtimePausedLabel);
    expect(screen.queryByText(realtimeActiveLabel)).not.toBeInTheDocument();
    update('failed');
    expect(screen.getByRole('status')).toHaveTextContent(realtimePausedLabel);
    update('connected');
    expect(screen.getByRole('status')).toHaveTextContent(realtimeActiveLabel);
    update('idle');
    expect(screen.getByRole('status')).toBeEmptyDOMElement();
  });

  it('says it is offline as soon as the browser goes offline, before the socket notices', () => {
    const onLine = vi.spyOn(window.navigator, 'onLine', 'get');
    const update = renderStatus('connected');
    onLine.mockReturnValue(false);
    act(() => {
      window.dispatchEvent(new Event('offline'));
    });
    expect(screen.getByRole('status')).toHaveTextContent(realtimeOfflineLabel);
    update('connecting');
    expect(screen.getByRole('status')).toHaveTextContent(realtimeOfflineLabel);
    onLine.mockReturnValue(true);
    act(() => {
      window.dispatchEvent(new Event('online'));
    });
    update('connected');
    expect(screen.getByRole('status')).toHaveTextContent(realtimeActiveLabel);
  });

  // Review L6: every character, inventory or party page visit said "Real-time updates active", on top of
  // the focused heading and the entry count.
  it('says nothing when a page opens on a connection, only when the connection is lost or back', () => {
    const update = renderStatus('connecting');
    expect(heard(() => update('connected'))).toEqual([]);
    expect(screen.getByTestId('realtime-indicator')).toHaveTextContent(realtimeActiveLabel);
    expect(heard(() => update('connecting'))).toEqual([realtimePausedLabel]);
    expect(heard(() => update('connected'))).toEqual([realtimeActiveLabel]);
  });

  it('says the first connection of a page opened offline, once the network is back', () => {
    const onLine = vi.spyOn(window.navigator, 'onLine', 'get').mockReturnValue(false);
    const update = renderStatus('connecting');
    act(() => {
      window.dispatchEvent(new Event('offline'));
    });
    onLine.mockReturnValue(true);
    act(() => {
      window.dispatchEvent(new Event('online'));
    });
    expect(heard(() => update('connected'))).toEqual([realtimeActiveLabel]);
  });
});

/**
 * What a screen reader hears from the status region during `change`: its text, if it changed while the
 * region was live. An aria-live record's old value is what the region was until then; after the last one,
 * it is what it is now.
 */
function heard(change: () => void): string[] {
  const region = screen.getByRole('status');
  const observer = new MutationObserver(() => undefined);
  observer.observe(region, {
    childList: true,
    subtree: true,
    characterData: true,
    attributes: true,
    attributeFilter: ['aria-live'],
    attributeOldValue: true,
  });
  change();
  const records = observer.takeRecords();
  observer.disconnect();
  const liveness = records.filter((record) => record.type === 'attributes');
  let seen = 0;
  let changedWhileLive = false;
  for (const record of records) {
    if (record.type === 'attributes') {
      seen += 1;
    } else if ((liveness[seen]?.oldValue ?? region.getAttribute('aria-live')) !== 'off') {
      changedWhileLive = true;
    }
  }
  return changedWhileLive ? [region.textContent ?? ''] : [];
}
