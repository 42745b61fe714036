import { MantineProvider } from '@mantine/core';
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { describe, expect, it, vi } from 'vitest';
import { ApiError } from '../lib/http-client';
import { ErrorBoundary } from './error-boundary';
import { ErrorPanel } from './error-panel';

function Bomb({ explode }: { explode: boolean }) {
  if (explode)
    throw new ApiError({
      code: 'RESOURCE_NOT_FOUND',
      status: 404,
      message: 'The requested item could not be found.',
    });
  return <p>All good</p>;
}

function Harness() {
  const [explode, setExplode] = useState(true);
  return (
    <ErrorBoundary onReset={() => setExplode(false)}>
      <Bomb explode={explode} />
    </ErrorBoundary>
  );
}

describe('ErrorPanel', () => {
  it('defaults to the spec texts and offers Try Again only with a handler', async () => {
    const onRetry = vi.fn();
    const { rerender } = render(
      <MantineProvider env="test">
        <ErrorPanel />
      </MantineProvider>,
    );
    expect(screen.getByText('Something went wrong')).toBeInTheDocument();
    expect(screen.getByText('An unexpected error occurred. Please try again.')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Try Again' })).not.toBeInTheDocument();
    rerender(
      <MantineProvider env="test">
        <ErrorPanel onRetry={onRetry} />
      </MantineProvider>,
    );
    await userEvent.setup().click(screen.getByRole('button', { name: 'Try Again' }));
    expect(onRetry).toHaveBeenCalledTimes(1);
  });
});

describe('ErrorBoundary', () => {
  it('shows the message and code of the error, and Try Again renders the children again', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    render(
      <MantineProvider env="test">
        <Harness />
      </MantineProvider>,
    );
    expect(screen.getByText('The requested item could not be found.')).toBeInTheDocument();
    expect(screen.getByText('RESOURCE_NOT_FOUND')).toBeInTheDocument();
    await userEvent.setup().click(screen.getByRole('button', { name: 'Try Again' }));
    expect(screen.getByText('All good')).toBeInTheDocument();
  });
});
