import { describePlanLimitPage } from '../../subscription/plan-limit-page-tests';
import { LootTemplateCreatePage } from './loot-template-create-page';

// Mantine's autosizing Textarea listens for font loading, which happy-dom does not provide.
if (!('fonts' in document)) {
  Object.defineProperty(document, 'fonts', { value: new EventTarget() });
}

describePlanLimitPage({
  title: 'LootTemplateCreatePage at the plan’s limit of loot templates',
  routes: [
    { path: '/loot/templates/new', element: <LootTemplateCreatePage /> },
    { path: '/loot/templates', element: <p>Loot templates</p> },
    { path: '/loot/templates/:id/inventory', element: <p>Fill the loot</p> },
  ],
  resource: 'loot_templates',
  createPath: '/loot_templates',
  limit: 10,
  tier: 'tier_1',
  label: 'loot templates',
  toasts: /loot template/i,
  submit: 'Create Loot Template',
  nameField: 'Name',
  name: 'Ogre Sack',
});
