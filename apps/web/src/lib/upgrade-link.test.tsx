import { featureKeys, isLiveFeature, isLiveUsageResource, usageResources } from '@haversack/contracts';
import { MantineProvider } from '@mantine/core';
import { Notifications, notifications } from '@mantine/notifications';
import { act, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { failure, jsonResponse, mockFetch } from '../test/fixtures';
import { setAppNavigator } from './app-navigation';
import { API_V1, apiRequest } from './http-client';
import { sameSitePath } from './redirect';
import { toast } from './toast';
import { upgradePathFor } from './upgrade-link';

const limitMessage = 'Your Free plan allows 1 character. Upgrade to create more.';

function limitExceeded() {
  return jsonResponse(403, {
    status: 'error',
    error: {
      type: 'limit_exceeded',
      code: 'LIMIT_EXCEEDED',
      message: limitMessage,
      status: 403,
      details: [{ field: 'characters', message: limitMessage, resource: 'characters', limit: 1, used: 1 }],
    },
  });
}

function featureNotAvailable() {
  const message = 'Shop deployment is not included in your Free plan. Upgrade to use it.';
  return jsonResponse(403, {
    status: 'error',
    error: {
      type: 'feature_not_available',
      code: 'FEATURE_NOT_AVAILABLE',
      message,
      status: 403,
      details: [{ field: 'shops_deployment', message, feature: 'shops_deployment' }],
    },
  });
}

// Mantine keeps notifications in one store for the whole run: start each test with none.
beforeEach(() => notifications.clean());
afterEach(() => setAppNavigator(null));

describe('plan refusal toasts (issue 3)', () => {
  it('a LIMIT_EXCEEDED toast carries the server sentence and a link to the upgrade page for the resource', async () => {
    const toastError = vi.spyOn(toast, 'error');
    mockFetch(limitExceeded);
    await expect(apiRequest(`${API_V1}/characters`, { method: 'POST', body: {} })).rejects.toThrow();
    expect(toastError).toHaveBeenCalledWith(limitMessage, undefined, {
      label: 'See upgrade options',
      href: '/subscription/upgrade?resource=characters',
    });
  });

  it('a FEATURE_NOT_AVAILABLE toast links to the upgrade page for the feature', async () => {
    const toastError = vi.spyOn(toast, 'error');
    mockFetch(featureNotAvailable);
    await expect(apiRequest(`${API_V1}/shops`, { method: 'POST', body: {} })).rejects.toThrow();
    expect(toastError).toHaveBeenCalledWith(expect.stringContaining('Shop deployment'), undefined, {
      label: 'See upgrade options',
      href: '/subscription/upgrade?feature=shops_deployment',
    });
  });

  it('other refusals toast without a link', async () => {
    const toastError = vi.spyOn(toast, 'error');
    mockFetch(() => failure(403, 'FORBIDDEN', 'no'));
    await expect(apiRequest(`${API_V1}/parties/1`)).rejects.toThrow();
    expect(toastError).toHaveBeenCalledWith('You do not have permission to perform this action.');
  });

  it('the drawn toast shows the link, and following it navigates within the app and closes the toast', async () => {
    const navigate = vi.fn();
    setAppNavigator(navigate);
    render(
      <MantineProvider env="test">
        <Notifications />
      </MantineProvider>,
    );
    mockFetch(limitExceeded);
    await act(async () => {
      await apiRequest(`${API_V1}/characters`, { method: 'POST', body: {} }).catch(() => undefined);
    });

    const link = await screen.findByRole('link', { name: 'See upgrade options' });
    expect(link).toHaveAttribute('href', '/subscription/upgrade?resource=characters');
    expect(screen.getByText(limitMessage)).toBeInTheDocument();
    await userEvent.setup().click(link);
    expect(navigate).toHaveBeenCalledWith('/subscription/upgrade?resource=characters');
    await vi.waitFor(() => expect(screen.queryByText(limitMessage)).not.toBeInTheDocument());
  });
});

describe('upgradePathFor', () => {
  it('carries the page to come back to, and refuses any that is not of this app', () => {
    const refused = {
      code: 'FEATURE_NOT_AVAILABLE',
      details: [{ field: 'x', message: 'no', feature: 'shops_deployment' }],
      message: 'no',
      serverMessage: null,
    };
    expect(upgradePathFor(refused, '/parties/p1?tab=shops')).toBe(
      `/subscription/upgrade?${new URLSearchParams({ feature: 'shops_deployment', from: '/parties/p1?tab=shops' })}`,
    );
    expect(sameSitePath('/parties/p1?tab=shops')).toBe('/parties/p1?tab=shops');
    for (const elsewhere of [
      '//evil.example',
      '/\\evil.example',
      // A browser drops tabs and newlines from a URL: each of these is '//evil.example' to it.
      '/\t/evil.example/phish',
      '/\n/evil.example',
      '/\r/evil.example',
      'https://evil.example',
      'parties',
      '',
      null,
    ])
      expect(sameSitePath(elsewhere)).toBeNull();
  });

  it('leads a refusal naming something this server does not offer yet to the comparison, not an upgrade', () => {
    const refusal = (code: string, detail: Record<string, string>) => ({
      code,
      details: [{ field: 'x', message: 'no', ...detail }],
      message: 'no',
      serverMessage: null,
    });
    expect(upgradePathFor(refusal('FEATURE_NOT_AVAILABLE', { feature: 'party_collaboration' }))).toBe(
      '/subscription/upgrade?feature=party_collaboration',
    );
    for (const feature of featureKeys.filter((key) => !isLiveFeature(key))) {
      expect(upgradePathFor(refusal('FEATURE_NOT_AVAILABLE', { feature }))).toBe('/subscription/compare');
    }
    for (const resource of usageResources.filter((key) => !isLiveUsageResource(key))) {
      expect(upgradePathFor(refusal('LIMIT_EXCEEDED', { resource }))).toBe('/subscription/compare');
    }
  });
});
