import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { ApiError } from '../lib/http-client';
import { renderRoutes } from '../test/render';
import { DetailLoadError } from './detail-load-error';

function renderError(error: Error, onRetry = vi.fn()) {
  renderRoutes(
    [
      {
        path: '/',
        element: (
          <DetailLoadError
            error={error}
            onRetry={onRetry}
            subject="Container"
            heading="Inventory"
            notFoundText="The container might not exist or you may not have permission to view it."
            back={{ href: '/characters', label: 'Back to Characters' }}
          />
        ),
      },
    ],
    '/',
  );
  return onRetry;
}

describe('DetailLoadError', () => {
  it('says the record was not found on a 404, without offering a retry', async () => {
    renderError(
      new ApiError({ code: 'NOT_FOUND', status: 404, message: 'The requested item could not be found.' }),
    );
    expect(await screen.findByRole('heading', { level: 1 })).toHaveTextContent('Container Not Found');
    expect(
      screen.getByText('The container might not exist or you may not have permission to view it.'),
    ).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Try Again' })).not.toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Back to Characters' })).toHaveAttribute('href', '/characters');
  });

  it('offers Try Again for any other failure', async () => {
    const onRetry = renderError(new Error('Network request failed'));
    expect(await screen.findByRole('heading', { level: 1 })).toHaveTextContent('Inventory');
    expect(screen.getByText('Failed to load inventory')).toBeInTheDocument();
    expect(screen.getByText('Network request failed')).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Try Again' }));
    expect(onRetry).toHaveBeenCalledOnce();
  });

  it('says not found, not "check your input", for a malformed id in the address', async () => {
    renderError(
      new ApiError({
        code: 'VALIDATION_ERROR',
        status: 422,
        message: 'Please check your input',
        details: [{ field: 'id', message: 'Must be a valid id' }],
      }),
    );
    expect(await screen.findByRole('heading', { level: 1 })).toHaveTextContent('Container Not Found');
    expect(screen.queryByText('Please check your input')).not.toBeInTheDocument();
  });
});
