import { MantineProvider } from '@mantine/core';
import { render, screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { theme } from '../app/theme';
import { ApiError } from '../lib/http-client';
import { ErrorPanel } from './error-panel';

function renderPanel(error: Error, onRetry = vi.fn()) {
  render(
    <MantineProvider env="test" theme={theme}>
      <ErrorPanel title="Failed to Load Audit Logs" error={error} onRetry={onRetry} />
    </MantineProvider>,
  );
}

const refused = new ApiError({
  code: 'VALIDATION_ERROR',
  status: 422,
  message: 'Please check your input and try again',
  serverMessage: 'The request has invalid fields',
  details: [{ field: 'to', message: 'to must be between 1000-01-01 and 9998-12-31' }],
});

describe('ErrorPanel', () => {
  it('says what the server refused in a 422, with no Try Again that could only be refused again', () => {
    renderPanel(refused);
    const panel = screen.getByRole('alert');
    expect(panel).not.toHaveTextContent('could not be loaded');
    expect(panel).toHaveTextContent('The request has invalid fields');
    expect(panel).toHaveTextContent('to must be between 1000-01-01 and 9998-12-31');
    expect(screen.queryByRole('button', { name: 'Try Again' })).not.toBeInTheDocument();
  });

  it('keeps its title, the error’s message and Try Again for any other failure', () => {
    renderPanel(
      new ApiError({
        code: 'INTERNAL_SERVER_ERROR',
        status: 500,
        message: 'Server error. Please try again later.',
      }),
    );
    const panel = screen.getByRole('alert');
    expect(panel).toHaveTextContent('Failed to Load Audit Logs');
    expect(panel).toHaveTextContent('Server error. Please try again later.');
    expect(screen.getByRole('button', { name: 'Try Again' })).toBeInTheDocument();
  });
});
