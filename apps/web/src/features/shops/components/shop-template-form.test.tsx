import { shopPricingNotes, shopTemplateFormSchema } from '@haversack/contracts';
import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { useUiStore } from '../../../stores/ui-store';
import { mockFetch, success } from '../../../test/fixtures';
import { renderRoutes, withUnsavedChangesGuard } from '../../../test/render';
import { ShopTemplateEditPage } from '../pages/shop-template-edit-page';
import { buildShopTemplate } from '../test/shop-fixtures';

// Mantine's autosizing Textarea listens for font loading, which happy-dom does not provide.
if (!('fonts' in document)) {
  Object.defineProperty(document, 'fonts', { value: new EventTarget() });
}

const routes = withUnsavedChangesGuard([
  { path: '/shops/templates/:id/edit', element: <ShopTemplateEditPage /> },
  { path: '/shops/templates/:id', element: <p>Template detail</p> },
]);

describe('ShopTemplateForm: the length of what is typed', () => {
  it('stops the name, description and shopkeeper at the server’s limits, not before', async () => {
    mockFetch(() =>
      success(buildShopTemplate({ id: 'st-1', name: 'Marta’s', is_system: false, is_owner: true })),
    );
    renderRoutes(routes, '/shops/templates/st-1/edit');
    const fields = {
      name: await screen.findByRole('textbox', { name: 'Shop name' }),
      description: screen.getByRole('textbox', { name: 'Description' }),
      owner: screen.getByRole('textbox', { name: 'Shopkeeper' }),
    };
    for (const [key, field] of Object.entries(fields)) {
      expect(field).toHaveAttribute('maxlength');
      const longest = Number(field.getAttribute('maxlength'));
      const accepts = (length: number) =>
        shopTemplateFormSchema.safeParse({ name: 'Marta’s', [key]: 'x'.repeat(length) }).success;
      expect(accepts(longest), key).toBe(true);
      expect(accepts(longest + 1), key).toBe(false);
    }
  });
});

describe('ShopTemplateForm and the general toasts (spec/01 §8)', { timeout: 30_000 }, () => {
  it('leaves untouched freely; blank, toasts the required fields; edited, asks before leaving', async () => {
    mockFetch(() =>
      success(buildShopTemplate({ id: 'st-1', name: 'Marta’s', is_system: false, is_owner: true })),
    );
    const user = userEvent.setup();
    const { router } = renderRoutes(routes, '/shops/templates/st-1/edit');
    await screen.findByRole('textbox', { name: 'Shop name' });
    await user.click(screen.getByRole('link', { name: 'Elsewhere' }));
    await vi.waitFor(() => expect(router.state.location.pathname).toBe('/elsewhere'));

    await router.navigate('/shops/templates/st-1/edit');
    await user.clear(await screen.findByRole('textbox', { name: 'Shop name' }));
    await user.click(screen.getByRole('button', { name: 'Save Changes' }));
    await vi.waitFor(() =>
      expect(useUiStore.getState().toasts.at(-1)).toMatchObject({
        kind: 'error',
        message: 'Please fill in all required fields.',
      }),
    );

    await user.click(screen.getByRole('link', { name: 'Elsewhere' }));
    expect(await screen.findByRole('dialog', { name: 'Leave this page?' })).toHaveTextContent(
      'You have unsaved changes.',
    );
    expect(router.state.location.pathname).toBe('/shops/templates/st-1/edit');
  });

  it('keeps a modifier typed past 10 and says why, rather than saving 10 silently (spec/02 §4)', async () => {
    const fetchMock = mockFetch(() =>
      success(buildShopTemplate({ id: 'st-1', name: 'Marta’s', is_system: false, is_owner: true })),
    );
    const user = userEvent.setup();
    renderRoutes(routes, '/shops/templates/st-1/edit');
    const buy = await screen.findByRole('textbox', { name: /Buy modifier/ });
    await user.clear(buy);
    await user.type(buy, '11');
    await user.tab();
    expect(buy).toHaveValue('11');
    await user.click(screen.getByRole('button', { name: 'Save Changes' }));
    expect(await screen.findByText('Buy modifier must be between 0 and 10')).toBeInTheDocument();
    expect(fetchMock.mock.calls.filter(([, init]) => init?.method === 'PATCH')).toHaveLength(0);
  });

  it('says beside the modifiers that the shop never pays more for an item than it asks', async () => {
    mockFetch(() =>
      success(buildShopTemplate({ id: 'st-1', name: 'Marta’s', is_system: false, is_owner: true })),
    );
    renderRoutes(routes, '/shops/templates/st-1/edit');
    await screen.findByRole('textbox', { name: /Sell modifier/ });
    expect(screen.getByTestId('sell-cap-note')).toHaveTextContent(shopPricingNotes.sellCap);
  });
});
