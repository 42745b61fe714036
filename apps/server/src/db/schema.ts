import * as accounts from './schema/accounts.js';
import * as admin from './schema/admin.js';
import * as apiTokens from './schema/api-tokens.js';
import * as backOffice from './schema/back-office.js';
import * as characters from './schema/characters.js';
import * as discord from './schema/discord.js';
import * as idempotencyKeys from './schema/idempotency-keys.js';
import * as inventory from './schema/inventory.js';
import * as items from './schema/items.js';
import * as jobs from './schema/jobs.js';
import * as loot from './schema/loot.js';
import * as lootItems from './schema/loot-items.js';
import * as notifications from './schema/notifications.js';
import * as parties from './schema/parties.js';
import * as seedStateSchema from './schema/seed-state.js';
import * as shares from './schema/shares.js';
import * as shopItems from './schema/shop-items.js';
import * as shopRequests from './schema/shop-requests.js';
import * as shops from './schema/shops.js';
import * as subscriptions from './schema/subscriptions.js';

/** Every table, for drizzle's relational queries. drizzle-kit reads schema/*.ts directly. */
export const schema = {
  ...accounts,
  ...admin,
  ...backOffice,
  ...subscriptions,
  ...parties,
  ...characters,
  ...inventory,
  ...items,
  ...shops,
  ...shopItems,
  ...shopRequests,
  ...loot,
  ...lootItems,
  ...jobs,
  ...discord,
  ...seedStateSchema,
  ...apiTokens,
  ...idempotencyKeys,
  ...shares,
  ...notifications,
};
export type Schema = typeof schema;
