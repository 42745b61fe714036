import { act, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { DEFERRED_RETRY_MS, deferredComponent } from './deferred-component';

function Greeting({ name }: { name: string }) {
  return <p>Hello {name}</p>;
}

describe('deferredComponent', () => {
  afterEach(() => vi.useRealTimers());

  it('draws nothing while its module fails to load, never throws, and draws it once a retry succeeds', async () => {
    let reachable = false;
    const load = vi.fn(async () => {
      if (!reachable) throw new TypeError('Failed to fetch dynamically imported module');
      return Greeting;
    });
    const Deferred = deferredComponent(load);
    render(
      <>
        <h1>The page</h1>
        <Deferred name="Nim" />
      </>,
    );
    await act(async () => {});
    expect(screen.getByRole('heading', { name: 'The page' })).toBeInTheDocument();
    expect(screen.queryByText('Hello Nim')).not.toBeInTheDocument();
    expect(load).toHaveBeenCalledTimes(1);

    // Back online: it tries again at once.
    reachable = true;
    await act(async () => {
      window.dispatchEvent(new Event('online'));
    });
    expect(await screen.findByText('Hello Nim')).toBeInTheDocument();
    expect(load).toHaveBeenCalledTimes(2);
  });

  it('tries again every few seconds without an online event', async () => {
    vi.useFakeTimers();
    let failures = 2;
    const load = vi.fn(async () => {
      if (failures-- > 0) throw new TypeError('Failed to fetch');
      return Greeting;
    });
    const Deferred = deferredComponent(load);
    render(<Deferred name="Bram" />);
    await act(async () => vi.advanceTimersByTimeAsync(DEFERRED_RETRY_MS - 1));
    expect(load).toHaveBeenCalledTimes(1);
    await act(async () => vi.advanceTimersByTimeAsync(2 * DEFERRED_RETRY_MS));
    expect(load).toHaveBeenCalledTimes(3);
    expect(screen.getByText('Hello Bram')).toBeInTheDocument();
  });

  it('loads once for every instance, and preload() makes it ready before it is drawn', async () => {
    const load = vi.fn(async () => Greeting);
    const Deferred = deferredComponent(load);
    await Deferred.preload();
    render(
      <>
        <Deferred name="Aria" />
        <Deferred name="Cass" />
      </>,
    );
    expect(screen.getByText('Hello Aria')).toBeInTheDocument();
    expect(screen.getByText('Hello Cass')).toBeInTheDocument();
    expect(load).toHaveBeenCalledTimes(1);
  });
});
