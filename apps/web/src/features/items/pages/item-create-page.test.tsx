import { describePlanLimitPage } from '../../subscription/plan-limit-page-tests';
import { ItemCreatePage } from './item-create-page';

// Mantine's autosizing Textarea listens for font loading, which happy-dom does not provide.
if (!('fonts' in document)) {
  Object.defineProperty(document, 'fonts', { value: new EventTarget() });
}

describePlanLimitPage({
  title: 'ItemCreatePage at the plan’s limit of item templates',
  routes: [
    { path: '/items/new', element: <ItemCreatePage /> },
    { path: '/items', element: <p>Item list</p> },
    { path: '/items/templates/:id', element: <p>Item template</p> },
  ],
  resource: 'item_templates',
  createPath: '/item_templates',
  limit: 20,
  label: 'item templates',
  toasts: /item template/i,
  submit: 'Create Item',
  nameField: 'Name',
  name: 'Rope',
});
