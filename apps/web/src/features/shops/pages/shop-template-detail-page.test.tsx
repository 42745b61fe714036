import { screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { failure, jsonResponse, mockFetch, success } from '../../../test/fixtures';
import { buildParty, pageMeta } from '../../../test/party-fixtures';
import { renderRoutes } from '../../../test/render';
import { buildShopTemplate } from '../test/shop-fixtures';
import { ShopTemplateDetailPage } from './shop-template-detail-page';

const routes = [{ path: '/shops/templates/:id', element: <ShopTemplateDetailPage /> }];
const template = buildShopTemplate({ shop_items: [] });

function serve(parties: ReturnType<typeof buildParty>[]) {
  return mockFetch(({ url }) => {
    const path = new URL(url, 'http://test').pathname;
    if (path.endsWith('/parties')) {
      return jsonResponse(200, { status: 'success', data: parties, meta: pageMeta(parties.length, 100) });
    }
    if (path.endsWith(`/shop_templates/${template.id}`)) return success(template);
    return failure(404, 'RESOURCE_NOT_FOUND', `No fake for ${path}`);
  });
}

describe('ShopTemplateDetailPage', { timeout: 30_000 }, () => {
  it('disables Deploy to Party, saying why, when I am the GM or a manager of no active party', async () => {
    serve([buildParty({ user_role: 'player', is_gm: false })]);
    const { unmount } = renderRoutes(routes, `/shops/templates/${template.id}`);
    const deploy = await screen.findByRole('button', { name: 'Deploy to Party' });
    await vi.waitFor(() => expect(deploy).toBeDisabled());
    expect(deploy).toHaveAccessibleDescription(
      'You are not the GM or a manager of any active party. Only the GM or a manager of a party can deploy a shop into it.',
    );
    unmount();

    serve([buildParty({ user_role: 'manager', is_gm: false })]);
    renderRoutes(routes, `/shops/templates/${template.id}`);
    const mine = await screen.findByRole('button', { name: 'Deploy to Party' });
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(mine).toBeEnabled();
    expect(screen.queryByTestId('no-deploy-party')).not.toBeInTheDocument();
  });
});
