import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { ApiError } from '../lib/http-client';
import { renderRoutes } from '../test/render';
import { FeatureUpgradePrompt, UpgradePrompt } from './upgrade-prompt';

function renderPrompt(error: unknown) {
  return renderRoutes([{ path: '/', element: <UpgradePrompt error={error} /> }], '/');
}

describe('UpgradePrompt', () => {
  it('explains a limit refusal and links to the upgrade page for that resource', async () => {
    const message = 'Your Free plan allows 1 party you run. Upgrade to create more.';
    renderPrompt(
      new ApiError({
        code: 'LIMIT_EXCEEDED',
        status: 403,
        message: 'Your plan limit has been reached. Upgrade to do more.',
        serverMessage: message,
        details: [{ field: 'parties_created', message, resource: 'parties_created', limit: 1, used: 1 }],
      }),
    );
    expect(await screen.findByTestId('upgrade-prompt')).toHaveTextContent(message);
    // In answer to an action: an alert.
    expect(screen.getByTestId('upgrade-prompt')).toHaveAttribute('role', 'alert');
    expect(screen.getByRole('link', { name: 'See upgrade options' })).toHaveAttribute(
      'href',
      '/subscription/upgrade?resource=parties_created',
    );
  });

  it('says a missing feature up front as a standing notice, not an alert', async () => {
    renderRoutes(
      [
        {
          path: '/',
          element: (
            <FeatureUpgradePrompt feature="api_access">
              Tokens need a plan with API access.
            </FeatureUpgradePrompt>
          ),
        },
      ],
      '/',
    );
    const prompt = await screen.findByTestId('upgrade-prompt');
    expect(prompt).toHaveAttribute('role', 'status');
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
  });

  it('renders nothing for other errors', async () => {
    renderPrompt(new ApiError({ code: 'VALIDATION_ERROR', status: 422, message: 'Please check your input' }));
    await screen.findByText((_, element) => element?.tagName === 'BODY');
    expect(screen.queryByTestId('upgrade-prompt')).not.toBeInTheDocument();
  });
});
