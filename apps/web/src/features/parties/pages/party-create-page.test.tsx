import { describePlanLimitPage } from '../../subscription/plan-limit-page-tests';
import { PartyCreatePage } from './party-create-page';

describePlanLimitPage({
  title: 'PartyCreatePage at the plan’s limit of parties',
  routes: [
    { path: '/parties/new', element: <PartyCreatePage /> },
    { path: '/parties', element: <p>Party list</p> },
    { path: '/parties/:id', element: <p>Party page</p> },
  ],
  resource: 'parties_created',
  createPath: '/parties',
  limit: 1,
  label: 'party you run',
  toasts: /part(y|ies) you run/,
  submit: 'Create Party',
  nameField: /Party Name/,
  name: 'Lanterns',
});
