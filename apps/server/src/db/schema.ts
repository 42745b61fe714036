import * as accounts from './schema/accounts.js';
import * as characters from './schema/characters.js';
import * as inventory from './schema/inventory.js';
import * as items from './schema/items.js';
import * as parties from './schema/parties.js';
import * as subscriptions from './schema/subscriptions.js';

/** Every table, for drizzle's relational queries. drizzle-kit reads schema/*.ts directly. */
export const schema = { ...accounts, ...subscriptions, ...parties, ...characters, ...inventory, ...items };
export type Schema = typeof schema;
