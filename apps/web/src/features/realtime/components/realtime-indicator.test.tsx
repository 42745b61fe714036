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
});
