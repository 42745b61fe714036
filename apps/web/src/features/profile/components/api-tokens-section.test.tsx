import type { ApiToken } from '@haversack/contracts';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { tokenStorage } from '../../../lib/token-storage';
import { useAuthStore } from '../../../stores/auth-store';
import { useUiStore } from '../../../stores/ui-store';
import { buildTokens, buildUser, failure, mockFetch, success } from '../../../test/fixtures';
import { renderRoutes } from '../../../test/render';
import { buildCurrentSubscription } from '../../subscription/subscription-fixtures';
import { ApiTokensSection } from './api-tokens-section';

function apiToken(overrides: Partial<ApiToken>): ApiToken {
  return {
    id: 'token-1',
    name: 'Inventory spreadsheet',
    scope: 'read',
    hint: 'hvk_Ab12',
    expires_at: null,
    last_used_at: null,
    expired: false,
    created_at: '2026-03-01T10:00:00.000Z',
    ...overrides,
  };
}

const spreadsheet = apiToken({});
const bot = apiToken({ id: 'token-2', name: 'Discord bot', hint: 'hvk_Cd34' });
const backup = apiToken({ id: 'token-3', name: 'Nightly backup', hint: 'hvk_Ef56' });

/** A server that lists `initial`, creates and revokes tokens as asked, on a plan with API access. */
function serveTokens(initial: ApiToken[]) {
  let listed = [...initial];
  return mockFetch(({ url, init }) => {
    if (url.endsWith('/subscription/current')) return success(buildCurrentSubscription({ tier: 'tier_2' }));
    const revoked = url.match(/\/users\/me\/api_tokens\/([^/]+)$/);
    if (revoked && init.method === 'DELETE') {
      listed = listed.filter((token) => token.id !== revoked[1]);
      return new Response(null, { status: 204 });
    }
    if (url.endsWith('/users/me/api_tokens') && init.method === 'POST') {
      const created = apiToken({ id: 'token-new', name: 'Campaign notes', hint: 'hvk_Zz99' });
      listed = [...listed, created];
      return success({ ...created, token: 'hvk_Zz99secretsecretsecret' }, 201);
    }
    if (url.endsWith('/users/me/api_tokens')) return success(listed);
    return failure(404, 'RESOURCE_NOT_FOUND', 'not found');
  });
}

function renderSection() {
  tokenStorage.setTokens(buildTokens({ token: 'access-1' }));
  useAuthStore.setState({ isAuthenticated: true, isInitializing: false, user: buildUser() });
  return renderRoutes([{ path: '/profile', element: <ApiTokensSection /> }], '/profile');
}

const section = () => screen.getByRole('region', { name: 'API tokens' });

/** Revokes the token `name` from the keyboard: Revoke, then Revoke in the confirmation. */
async function revokeByKeyboard(user: ReturnType<typeof userEvent.setup>, name: string) {
  const button = within(section()).getByRole('button', { name: `Revoke API token ${name}` });
  button.focus();
  await user.keyboard('{Enter}');
  const dialog = await screen.findByRole('dialog', { name: 'Revoke API token?' });
  within(dialog).getByRole('button', { name: 'Revoke' }).focus();
  await user.keyboard('{Enter}');
  await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
  await waitFor(() =>
    expect(within(section()).queryByRole('button', { name: `Revoke API token ${name}` })).toBeNull(),
  );
}

beforeEach(() => {
  useUiStore.setState({ toasts: [] });
});

afterEach(() => {
  vi.restoreAllMocks();
  tokenStorage.clear();
});

describe('API tokens (issue 16 §5)', { timeout: 30_000 }, () => {
  it('says when a token was last used in the middle of its sentence: "Last used just now"', async () => {
    serveTokens([
      apiToken({ last_used_at: new Date().toISOString() }),
      apiToken({ id: 'token-2', name: 'Discord bot', last_used_at: '2026-02-03T10:00:00.000Z' }),
    ]);
    renderSection();
    await screen.findByText(/Last used just now/, {}, { timeout: 10_000 });
    expect(section()).not.toHaveTextContent('Just now');
    // A date keeps its capital: only the words are lowercased.
    expect(section()).toHaveTextContent(/Last used Feb 3, 2026/);
  });

  it('puts focus on the new token’s Copy button and says it is shown only once', async () => {
    serveTokens([]);
    const user = userEvent.setup();
    renderSection();
    (await within(section()).findByRole('button', { name: 'Create token' })).focus();
    await user.keyboard('{Enter}');
    const dialog = await screen.findByRole('dialog', { name: 'Create API token' });
    await waitFor(() => expect(within(dialog).getByRole('textbox', { name: /^Name/ })).toHaveFocus());
    await user.keyboard('Campaign notes{Enter}');

    const copy = await within(dialog).findByRole('button', { name: 'Copy API token' });
    await waitFor(() => expect(copy).toHaveFocus());
    // The warning is read with the button that takes the focus, and announced as an alert as it appears.
    expect(copy).toHaveAccessibleDescription(
      'Copy your token now This is the only time it is shown. Store it somewhere safe; if you lose it, revoke it and create another.',
    );
    expect(within(dialog).getByRole('alert')).toHaveTextContent(/^Copy your token now/);
    expect(dialog).toHaveTextContent('hvk_Zz99secretsecretsecret');
  });

  it('says what a read-only token may call: GET, HEAD and the two plan checks', async () => {
    serveTokens([]);
    const user = userEvent.setup();
    renderSection();
    await user.click(await within(section()).findByRole('button', { name: 'Create token' }));
    const dialog = await screen.findByRole('dialog', { name: 'Create API token' });
    expect(within(dialog).getByRole('radio', { name: 'Read only' })).toHaveAccessibleDescription(
      'GET and HEAD requests, and the two plan checks (POST check_feature, check_limit)',
    );
  });

  it('keeps the one-time token open against Escape and a click outside; only Done closes it', async () => {
    serveTokens([]);
    const user = userEvent.setup();
    renderSection();
    await user.click(await within(section()).findByRole('button', { name: 'Create token' }));
    const dialog = await screen.findByRole('dialog', { name: 'Create API token' });
    await user.type(within(dialog).getByRole('textbox', { name: /^Name/ }), 'Campaign notes{Enter}');
    const copy = await within(dialog).findByRole('button', { name: 'Copy API token' });
    await waitFor(() => expect(copy).toHaveFocus());

    await user.keyboard('{Escape}');
    const overlay = document.querySelector('.mantine-Modal-overlay');
    expect(overlay).not.toBeNull();
    if (overlay) await user.click(overlay);
    expect(screen.getByRole('dialog', { name: 'Create API token' })).toHaveTextContent(
      'hvk_Zz99secretsecretsecret',
    );
    // No corner close button either: the one way out is the explicit one, under the warning.
    expect(within(dialog).queryByRole('button', { name: 'Close' })).toBeNull();

    await user.click(within(dialog).getByRole('button', { name: 'Done' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
  });

  it('still closes the empty create form with Escape', async () => {
    serveTokens([]);
    const user = userEvent.setup();
    renderSection();
    await user.click(await within(section()).findByRole('button', { name: 'Create token' }));
    await screen.findByRole('dialog', { name: 'Create API token' });
    await user.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
  });

  it('after a revoke, puts focus on the next row’s Revoke, else the one before, else Create token', async () => {
    serveTokens([spreadsheet, bot, backup]);
    const user = userEvent.setup();
    renderSection();
    await within(section()).findAllByTestId('api-token');

    await revokeByKeyboard(user, 'Discord bot');
    await waitFor(() =>
      expect(
        within(section()).getByRole('button', { name: 'Revoke API token Nightly backup' }),
      ).toHaveFocus(),
    );
    expect(useUiStore.getState().toasts.map((t) => t.message)).toContain('API token “Discord bot” revoked');

    // The last row: the one before it.
    await revokeByKeyboard(user, 'Nightly backup');
    await waitFor(() =>
      expect(
        within(section()).getByRole('button', { name: 'Revoke API token Inventory spreadsheet' }),
      ).toHaveFocus(),
    );

    // None left: Create token.
    await revokeByKeyboard(user, 'Inventory spreadsheet');
    expect(await within(section()).findByTestId('api-tokens-empty')).toBeInTheDocument();
    await waitFor(() =>
      expect(within(section()).getByRole('button', { name: 'Create token' })).toHaveFocus(),
    );
  });
});
