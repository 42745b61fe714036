import { describePlanLimitPage } from '../../subscription/plan-limit-page-tests';
import { ShopTemplateCreatePage } from './shop-template-create-page';

// Mantine's autosizing Textarea listens for font loading, which happy-dom does not provide.
if (!('fonts' in document)) {
  Object.defineProperty(document, 'fonts', { value: new EventTarget() });
}

describePlanLimitPage({
  title: 'ShopTemplateCreatePage at the plan’s limit of shop templates',
  routes: [
    { path: '/shops/templates/new', element: <ShopTemplateCreatePage /> },
    { path: '/shops/templates', element: <p>Shop templates</p> },
    { path: '/shops/templates/:id/inventory', element: <p>Stock the shop</p> },
  ],
  resource: 'shop_templates',
  createPath: '/shop_templates',
  limit: 10,
  tier: 'tier_1',
  label: 'shop templates',
  toasts: /shop template/i,
  submit: 'Create Shop',
  nameField: 'Shop name',
  name: 'Marta’s',
});
