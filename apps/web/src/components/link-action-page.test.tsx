import { MantineProvider } from '@mantine/core';
import { IconCircleCheck } from '@tabler/icons-react';
import { render, screen } from '@testing-library/react';
import { StrictMode } from 'react';
import { describe, expect, it, vi } from 'vitest';
import { ApiError } from '../lib/http-client';
import { LinkActionPage, LinkActionResult } from './link-action-page';

const invalid = 'This link is invalid or has expired.';

/** A link page as the app's are, in StrictMode as main.tsx draws the app (effects run twice on mount). */
function renderLinkPage(token: string | null, act: (token: string) => Promise<string>) {
  return render(
    <StrictMode>
      <MantineProvider env="test">
        <LinkActionPage
          token={token}
          act={act}
          invalidMessage={invalid}
          progress={{ title: 'Checking the link', status: 'Checking your link...' }}
          done={(result) => (
            <LinkActionResult testId="link-done" worked icon={IconCircleCheck} title="It worked">
              <p>{result}</p>
            </LinkActionResult>
          )}
          failed={(message) => <p data-testid="link-failed">{message}</p>}
        />
      </MantineProvider>
    </StrictMode>,
  );
}

describe('LinkActionPage', () => {
  it('acts once with the token although StrictMode mounts it twice, saying so while it works', async () => {
    let answer: (result: string) => void = () => {};
    const act = vi.fn((_token: string) => new Promise<string>((resolve) => (answer = resolve)));
    renderLinkPage('token-1', act);
    expect(screen.getByRole('heading', { name: 'Checking the link' })).toBeInTheDocument();
    expect(screen.getByRole('status')).toHaveTextContent('Checking your link...');
    answer('Done with token-1');
    expect(await screen.findByRole('heading', { name: 'It worked' })).toBeInTheDocument();
    expect(screen.getByTestId('link-done')).toHaveTextContent('Done with token-1');
    expect(act).toHaveBeenCalledTimes(1);
    expect(act).toHaveBeenCalledWith('token-1');
  });

  it('fails a link without its token at once, asking nothing', () => {
    const act = vi.fn(async () => 'never');
    renderLinkPage(null, act);
    expect(screen.getByTestId('link-failed')).toHaveTextContent(invalid);
    expect(act).not.toHaveBeenCalled();
  });

  it('shows the server’s refusal, once', async () => {
    const act = vi.fn(async () => {
      throw new ApiError({
        code: 'VALIDATION_ERROR',
        status: 422,
        message: 'Validation failed',
        serverMessage: 'The verification link has already been used.',
      });
    });
    renderLinkPage('used', act);
    expect(await screen.findByTestId('link-failed')).toHaveTextContent(
      'The verification link has already been used.',
    );
    expect(act).toHaveBeenCalledTimes(1);
  });

  it('says the link does not work when no server answered with a message', async () => {
    renderLinkPage('token-2', async () => {
      throw new TypeError('Failed to fetch');
    });
    expect(await screen.findByTestId('link-failed')).toHaveTextContent(invalid);
  });
});
