import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { renderRoutes } from '../test/render';
import { LoadFailedLine } from './load-failed-line';

describe('LoadFailedLine', () => {
  it('says what could not be loaded, and Try Again asks again', async () => {
    const onRetry = vi.fn();
    renderRoutes(
      [{ path: '/', element: <LoadFailedLine text="Your parties could not be loaded." onRetry={onRetry} /> }],
      '/',
    );
    expect(await screen.findByText('Your parties could not be loaded.')).toBeVisible();
    await userEvent.click(screen.getByRole('button', { name: 'Try Again' }));
    expect(onRetry).toHaveBeenCalledTimes(1);
  });

  it('shows that it is asking again while the answer is on its way', async () => {
    renderRoutes(
      [
        {
          path: '/',
          element: <LoadFailedLine text="More items could not be loaded." onRetry={vi.fn()} loading />,
        },
      ],
      '/',
    );
    await screen.findByText('More items could not be loaded.');
    expect(screen.getByRole('button', { name: 'Try Again' })).toHaveAttribute('data-loading', 'true');
  });

  it('keeps its busy Try Again focusable, so the focus stays while it waits, and asks nothing more', async () => {
    const onRetry = vi.fn();
    renderRoutes(
      [
        {
          path: '/',
          element: <LoadFailedLine text="More items could not be loaded." onRetry={onRetry} loading />,
        },
      ],
      '/',
    );
    const tryAgain = await screen.findByRole('button', { name: 'Try Again' });
    expect(tryAgain).toBeEnabled();
    expect(tryAgain).toHaveAttribute('aria-disabled', 'true');
    expect(tryAgain).toHaveAttribute('type', 'button');
    tryAgain.focus();
    await userEvent.keyboard('{Enter}');
    expect(tryAgain).toHaveFocus();
    expect(onRetry).not.toHaveBeenCalled();
  });
});
