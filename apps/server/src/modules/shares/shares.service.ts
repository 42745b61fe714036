import { randomBytes } from 'node:crypto';
import {
  type ShareCreate,
  type SharedSnapshot,
  type ShareLink,
  shareMessages,
  sharePath,
} from '@haversack/contracts';
import type { Database } from '../../db/client.js';
import { AppError } from '../../lib/app-error.js';
import type { CharactersService } from '../characters/characters.service.js';
import type { InventoryService } from '../inventory/inventory.service.js';
import type { LootService } from '../loot/loot.service.js';
import type { ShopsService } from '../shops/shops.service.js';
import { characterSnapshot, lootSnapshot, SHARED_ITEMS_PER_SECTION, shopSnapshot } from './share-snapshot.js';
import {
  sharesRepository as repo,
  type ShareLinkRow,
  type ShareReference,
  type ShareTarget,
  targetOf,
} from './shares.repository.js';

interface Deps {
  characters: CharactersService;
  inventory: InventoryService;
  loot: LootService;
  shops: ShopsService;
  appUrl: string;
  now: () => Date;
}

/** 128 random bits, URL-safe: 22 characters nobody guesses. */
function newCode(): string {
  return randomBytes(16).toString('base64url');
}

const shareNotFound = () => new AppError('RESOURCE_NOT_FOUND', shareMessages.notFound);

/** What a link's maker sees of its target now: its name (null: nothing) and whether its page shows it. */
interface TargetView {
  name: string | null;
  available: boolean;
}
const unseen: TargetView = { name: null, available: false };

/**
 * Issue 16 §3: share links. A link is read through the eyes of the member who made it, with that
 * member's rights as they are now: the snapshot never shows more than its maker may see, and a maker who
 * leaves the party (or loses the character) takes the link's contents with them. Only a character's own
 * player shares it. Hidden loot is never shown, even when its GM made the link.
 */
export class SharesService {
  constructor(
    private readonly db: Database,
    private readonly deps: Deps,
  ) {}

  async create(userId: string, input: ShareCreate): Promise<{ share: ShareLink; created: boolean }> {
    const target: ShareTarget = { kind: input.kind, id: input.target_id };
    // Reading it as the user is the authorisation: whoever may see a shop or revealed loot may share it; a
    // character, only its player.
    const targetName = await this.#visibleName(userId, target);
    const existing = await repo.findActiveForTarget(this.db, userId, target);
    const shown = { name: targetName, available: true };
    if (existing) return { share: this.#toJson(existing, shown), created: false };
    const row = await repo.insert(this.db, { code: newCode(), userId, target, at: this.deps.now() });
    return { share: this.#toJson(row, shown), created: true };
  }

  /**
   * GET users/me/shares: every live link, each read through its maker's eyes as they are now. A link to
   * something they can no longer see (removed from the party, loot hidden again, a character handed over)
   * stays listed so that they can revoke it, but says nothing current about it: no name (attack review:
   * the list told a player the new name of loot the GM had hidden).
   */
  async listMine(userId: string): Promise<ShareLink[]> {
    const rows = await repo.listActive(this.db, userId);
    const links: ShareLink[] = [];
    for (const link of rows) {
      const target = targetOf(link);
      links.push(this.#toJson(link, target ? await this.#seenBy(userId, target) : unseen));
    }
    return links;
  }

  /** Revokes one of the user's own links, by its id or its code; another's or a revoked one is a 404. */
  async revoke(userId: string, link: ShareReference): Promise<void> {
    const revoked = await repo.revoke(this.db, userId, link, this.deps.now());
    if (!revoked) throw new AppError('RESOURCE_NOT_FOUND', 'Share link not found');
  }

  /** GET shares/{code}: public. An unknown, revoked or no longer readable link is one and the same 404. */
  async snapshot(code: string): Promise<SharedSnapshot> {
    const link = await repo.findActiveByCode(this.db, code);
    const target = link ? targetOf(link) : undefined;
    if (!link || !target) throw shareNotFound();
    try {
      return await this.#snapshotOf(link.userId, target);
    } catch (error) {
      if (error instanceof AppError && (error.status === 403 || error.status === 404)) throw shareNotFound();
      throw error;
    }
  }

  async #snapshotOf(makerId: string, target: ShareTarget): Promise<SharedSnapshot> {
    const { characters, inventory, loot, shops } = this.deps;
    if (target.kind === 'character') {
      const character = await characters.get(makerId, target.id);
      // A link to a character that changed hands (or was made by another member before only players could
      // share their own) shows nothing.
      if (character.user_id !== makerId) throw shareNotFound();
      const containers = await inventory.listContainers(makerId, { characterId: target.id });
      const sections = await Promise.all(
        containers.map(async (container) => {
          const page = await inventory.items(makerId, container.id, {
            page: 1,
            per_page: SHARED_ITEMS_PER_SECTION,
          });
          return { name: container.name, items: page.data, total: page.meta.total_count };
        }),
      );
      return characterSnapshot(character, sections);
    }
    if (target.kind === 'loot') {
      const instance = await loot.getInstance(makerId, target.id);
      // spec/02 §6: hidden loot is for the GM's eyes only; hiding it again hides the shared page too.
      if (!instance.is_revealed) throw shareNotFound();
      return lootSnapshot(instance);
    }
    return shopSnapshot(await shops.getInstance(makerId, target.id));
  }

  async #visibleName(userId: string, target: ShareTarget): Promise<string> {
    if (target.kind === 'character') {
      // A character's inventory is its player's to publish: other members may see it in the party, but a
      // public link to it would be out of its player's sight and reach (they could neither list nor revoke it).
      const character = await this.deps.characters.get(userId, target.id);
      if (character.user_id !== userId) throw new AppError('FORBIDDEN', shareMessages.notYourCharacter);
      return character.name;
    }
    if (target.kind === 'loot') {
      const instance = await this.deps.loot.getInstance(userId, target.id);
      if (!instance.is_revealed) {
        throw new AppError('VALIDATION_ERROR', shareMessages.hiddenLoot, {
          details: [{ field: 'target_id', message: shareMessages.hiddenLoot }],
        });
      }
      return instance.name;
    }
    return (await this.deps.shops.getInstance(userId, target.id)).name;
  }

  /**
   * What the maker sees of a link's target now, by the rules the shared page follows (#snapshotOf): their
   * own character; loot and shops of a party they are in, loot only while revealed (the GM sees hidden
   * loot, but its page shows nothing).
   */
  async #seenBy(userId: string, target: ShareTarget): Promise<TargetView> {
    if (target.kind === 'character') {
      try {
        const character = await this.deps.characters.get(userId, target.id);
        return { name: character.name, available: character.user_id === userId };
      } catch (error) {
        if (error instanceof AppError && (error.status === 403 || error.status === 404)) return unseen;
        throw error;
      }
    }
    if (target.kind === 'loot') {
      const loot = await this.deps.loot.seenBy(userId, target.id);
      return loot ? { name: loot.name, available: loot.isRevealed } : unseen;
    }
    const shop = await this.deps.shops.seenBy(userId, target.id);
    return shop ? { name: shop.name, available: true } : unseen;
  }

  #toJson(row: ShareLinkRow, view: TargetView): ShareLink {
    const target = targetOf(row);
    return {
      id: row.id,
      code: row.code,
      kind: row.kind,
      target_id: target?.id ?? '',
      target_name: view.name,
      available: view.available,
      url: `${this.deps.appUrl}${sharePath(row.code)}`,
      created_at: row.createdAt.toISOString(),
    };
  }
}
