import { screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { jsonResponse, mockFetch } from '../../../test/fixtures';
import { renderWithProviders } from '../../inventory/test/inventory-fixtures';
import { TemplateDeployments } from './template-deployments';

function status(instances: unknown[]) {
  return jsonResponse(200, {
    status: 'success',
    data: {
      shop_template_id: 'template-1',
      default_restock_days: 7,
      label: 'Every 7 days',
      items: [],
      instances,
    },
  });
}

describe('TemplateDeployments', () => {
  it('lists the shops deployed from the template in my parties, with their restock rhythm', async () => {
    const fetchMock = mockFetch(() =>
      status([
        { id: 'shop-1', name: 'Corner Shop', party_id: 'p', restock_days: 7, next_restock_at: null },
        { id: 'shop-2', name: 'Back Alley', party_id: 'p', restock_days: null, next_restock_at: null },
      ]),
    );
    renderWithProviders(<TemplateDeployments templateId="template-1" />);
    expect(await screen.findByRole('link', { name: 'Corner Shop' })).toHaveAttribute(
      'href',
      '/shops/instances/shop-1',
    );
    expect(screen.getByTestId('template-deployments')).toHaveTextContent('Never restocks');
    expect(String(fetchMock.mock.calls[0]?.[0])).toContain('/shop_templates/template-1/restock_status');
  });

  it('says so when the template is deployed nowhere', async () => {
    mockFetch(() => status([]));
    renderWithProviders(<TemplateDeployments templateId="template-1" />);
    expect(await screen.findByText('Not deployed in any of your parties yet.')).toBeVisible();
  });
  it('keeps the shops listed when a refresh fails, with a note', async () => {
    let connected = true;
    mockFetch(() => {
      if (!connected) throw new TypeError('Failed to fetch');
      return status([
        { id: 'shop-1', name: 'Corner Shop', party_id: 'p', restock_days: 7, next_restock_at: null },
      ]);
    });
    const { queryClient } = renderWithProviders(<TemplateDeployments templateId="template-1" />);
    expect(await screen.findByRole('link', { name: 'Corner Shop' })).toBeVisible();
    connected = false;
    await queryClient.refetchQueries({ queryKey: ['shops'] });
    await waitFor(() => expect(screen.getByTestId('refresh-failed-note')).toBeVisible(), { timeout: 5_000 });
    expect(screen.getByRole('link', { name: 'Corner Shop' })).toBeVisible();
  }, 20_000);
});
