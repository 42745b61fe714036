import {
  type DirectRow,
  type DirectStatement,
  toDate,
  toDateOrNull,
  toNumber,
  toNumberOrNull,
} from '../../db/direct.js';
import { statementName } from '../../db/statements.js';
import { hasCharacterInPartyText } from '../parties/parties.repository.js';
import type { ContainerContext, ContainerRow, InstanceRow, TemplateRow } from './inventory.repository.js';

/**
 * The statements of a move (a transfer, and the moves shops and loot share), written once as SQL text and
 * mapped by hand into the rows drizzle would answer (db/direct.ts). The column lists below and the mappers
 * under them go together: a mapper reads its columns from a given position of the row.
 */

const instanceColumns = (t: string) =>
  `${t}.id, ${t}.container_id, ${t}.item_template_id, ${t}.quantity, ${t}.instance_data, ${t}.notes, ${t}.is_identified, ${t}.created_at, ${t}.updated_at`;
const INSTANCE_WIDTH = 9;

export function instanceAt(row: DirectRow, at = 0): InstanceRow {
  return {
    id: row[at] as string,
    containerId: row[at + 1] as string,
    itemTemplateId: row[at + 2] as string,
    quantity: toNumber(row[at + 3]),
    instanceData: row[at + 4] as Record<string, unknown>,
    notes: row[at + 5] as string,
    isIdentified: row[at + 6] as boolean,
    createdAt: toDate(row[at + 7]),
    updatedAt: toDate(row[at + 8]),
  };
}

/** Every column but the search vector, which no move reads (TemplateRow leaves it out). */
const templateColumns = (t: string) =>
  `${t}.id, ${t}.name, ${t}.description, ${t}.weight, ${t}.base_value, ${t}.currency, ${t}.visibility, ${t}.stack_size, ${t}.metadata, ${t}.tags, ${t}.rating, ${t}.creator_id, ${t}.system_key, ${t}.deleted_at, ${t}.created_at, ${t}.updated_at`;
const TEMPLATE_WIDTH = 16;

function templateAt(row: DirectRow, at: number): TemplateRow {
  return {
    id: row[at] as string,
    name: row[at + 1] as string,
    description: row[at + 2] as string,
    weight: toNumber(row[at + 3]),
    baseValue: row[at + 4] as number,
    currency: row[at + 5] as TemplateRow['currency'],
    visibility: row[at + 6] as TemplateRow['visibility'],
    stackSize: row[at + 7] as number,
    metadata: row[at + 8] as Record<string, unknown>,
    tags: row[at + 9] as string[],
    rating: toNumberOrNull(row[at + 10]),
    creatorId: row[at + 11] as string | null,
    systemKey: row[at + 12] as string | null,
    deletedAt: toDateOrNull(row[at + 13]),
    createdAt: toDate(row[at + 14]),
    updatedAt: toDate(row[at + 15]),
  };
}

const containerColumns = (t: string) =>
  `${t}.id, ${t}.name, ${t}.description, ${t}.character_id, ${t}.party_id, ${t}.shop_instance_id, ${t}.loot_instance_id, ${t}.is_primary, ${t}.max_weight, ${t}.max_slots, ${t}.created_at, ${t}.updated_at`;
const CONTAINER_WIDTH = 12;

function containerAt(row: DirectRow, at: number): ContainerRow {
  return {
    id: row[at] as string,
    name: row[at + 1] as string,
    description: row[at + 2] as string,
    characterId: row[at + 3] as string | null,
    partyId: row[at + 4] as string | null,
    shopInstanceId: row[at + 5] as string | null,
    lootInstanceId: row[at + 6] as string | null,
    isPrimary: row[at + 7] as boolean,
    maxWeight: toNumberOrNull(row[at + 8]),
    maxSlots: row[at + 9] as number | null,
    createdAt: toDate(row[at + 10]),
    updatedAt: toDate(row[at + 11]),
  };
}

const lockContextsStatements = new Map<string, DirectStatement>();

/**
 * `inventoryRepository.lockContextsForUser`: containers locked in id order (sorted before they are
 * locked), each with its character, its party and the user's role and character in that party, and
 * `extra`, one more column of the caller's about the user ($1) and the container's party (`p.id`).
 * $1 the user, $2 the container ids.
 */
export function lockContextsStatement(extra = 'null'): DirectStatement {
  let statement = lockContextsStatements.get(extra);
  if (!statement) {
    statement = {
      name: statementName('inventory_lock_contexts_direct', extra),
      text: contextsText(extra),
    };
    lockContextsStatements.set(extra, statement);
  }
  return statement;
}

/**
 * A fingerprint of everything a container's page of items is built from, up to the container's id (the
 * caller closes it: `${ITEMS_FINGERPRINT_OF} c.id)`): which stacks it holds, the row version (xmin, the
 * transaction that wrote the row) of each stack, and the count of statements that ever changed a template
 * row (`item_template_generation.rows_changed`, bumped by a trigger: migration 0018). Any write to a stack,
 * by any path, writes a new row version with a new xmin, a stack moving in or out changes the set, and any
 * template edit changes the count, so the fingerprint changes in the very statement that reads it. (xmin
 * stays as written when a row is frozen since PostgreSQL 9.4, so a vacuum does not change it either.)
 * The count stands in for each template's own row version, whose 200 lookups per read cost more than the
 * rest of the read: a template edit, rare, forgets every kept page instead of those that show it.
 */
export const ITEMS_FINGERPRINT_OF = `(select md5(coalesce(string_agg(fi.id::text || ':' || fi.xmin::text, ',' order by fi.id), ''))
          || ':' || (select g.rows_changed from item_template_generation g where g.id = 1)
     from item_instances fi
    where fi.container_id =`;

/**
 * `inventoryRepository.contextForItems`: `lockContextsStatement`'s columns for one container, unlocked,
 * with the fingerprint of its items as the extra column, or none. $1 the user, $2 the container. (One id,
 * not an array of one: with an array PostgreSQL kept planning each execution, 0.19 ms against 0.15 ms
 * of running it, since its generic plan, estimated for an array of unknown length, looked dearer.)
 */
export function contextForItemsStatement(withFingerprint: boolean): DirectStatement {
  return withFingerprint ? contextWithFingerprintStatement : contextStatement;
}

const contextWithFingerprintStatement: DirectStatement = {
  name: 'inventory_context_for_items_direct',
  text: contextsText(`${ITEMS_FINGERPRINT_OF} c.id)`, false),
};
const contextStatement: DirectStatement = {
  name: 'inventory_context_direct',
  text: contextsText('null', false),
};

/** The containers located: $2 an array of ids, locked in id order; or one id ($2::uuid), unlocked. */
function contextsText(extra: string, lockMany = true) {
  return `select ${containerColumns('c')},
       ch.id, ch.name, ch.user_id, ch.party_id,
       p.id, p.name, p.encumbrance_style, p.game_master_id, p.is_archived,
       (select m.role from party_memberships m where m.party_id = p.id and m.user_id = $1),
       ${hasCharacterInPartyText('p.id', '$1')},
       ${extra}
  from containers c
  left join characters ch on ch.id = c.character_id
  left join parties p on p.id = coalesce(c.party_id, ch.party_id)
 where ${lockMany ? 'c.id = any($2::uuid[])\n order by c.id\n   for update of c' : 'c.id = $2::uuid'}`;
}

export type MembershipRole = 'gm' | 'manager' | 'player' | 'observer';

export interface LocatedRow {
  context: ContainerContext;
  role: MembershipRole | null;
  hasCharacter: boolean;
  /** The answer of the caller's extra column, if it asked for one. */
  extra?: unknown;
}

/** A row of `lockContextsStatement`, as `toContext` makes it of drizzle's row. */
export function locatedFrom(row: DirectRow): LocatedRow {
  const container = containerAt(row, 0);
  let at = CONTAINER_WIDTH;
  const characterId = row[at] as string | null;
  const characterName = row[at + 1] as string | null;
  const characterUserId = row[at + 2] as string | null;
  const character =
    characterId && characterName !== null && characterUserId
      ? {
          id: characterId,
          name: characterName,
          userId: characterUserId,
          partyId: row[at + 3] as string | null,
        }
      : null;
  at += 4;
  const partyId = row[at] as string | null;
  const partyName = row[at + 1] as string | null;
  const encumbranceStyle = row[at + 2] as NonNullable<ContainerContext['party']>['encumbranceStyle'] | null;
  const gameMasterId = row[at + 3] as string | null;
  const party =
    partyId && partyName !== null && encumbranceStyle && gameMasterId
      ? {
          id: partyId,
          name: partyName,
          encumbranceStyle,
          gameMasterId,
          isArchived: (row[at + 4] as boolean | null) ?? false,
        }
      : null;
  at += 5;
  return {
    context: {
      container,
      character,
      party,
      ownerName: character?.name ?? party?.name ?? '',
      ownerId: character?.id ?? party?.id ?? null,
    },
    role: row[at] as MembershipRole | null,
    hasCharacter: row[at + 1] as boolean,
    extra: row[at + 2],
  };
}

/**
 * `inventoryRepository.lockMove`: the stack locked with its template and its container's character, and
 * the target's stacks of the same template locked too, oldest first. $1 the stack, $2 the target container.
 * Only the stacks with room are read: a full one is never topped up, and a container of 350 swords (stack
 * size 1) made every move of a loot distribution read and lock all 350 again.
 */
export const lockMoveStatement: DirectStatement = {
  name: 'inventory_lock_move_direct',
  text: `select ${instanceColumns('i')}, ${templateColumns('t')}, c.character_id
  from item_instances i
  join item_templates t on t.id = i.item_template_id
  join containers c on c.id = i.container_id
 where i.id = $1
    or (i.container_id = $2 and i.item_template_id = (select s.item_template_id from item_instances s where s.id = $1)
        and (t.stack_size = 0 or i.quantity < t.stack_size))
 order by i.created_at, i.id
   for update of i`,
};

export function moveRowFrom(row: DirectRow) {
  return {
    instance: instanceAt(row, 0),
    template: templateAt(row, INSTANCE_WIDTH),
    characterId: row[INSTANCE_WIDTH + TEMPLATE_WIDTH] as string | null,
  };
}

/** `inventoryRepository.setQuantities`, for any number of stacks. $1 the time, $2 ids, $3 quantities. */
export const setQuantitiesStatement: DirectStatement = {
  name: 'inventory_set_quantities_direct',
  text: `update item_instances i
   set quantity = v.quantity, updated_at = $1::timestamptz
  from unnest($2::uuid[], $3::bigint[]) as v(id, quantity)
 where i.id = v.id
returning ${instanceColumns('i')}`,
};

/**
 * `inventoryRepository.insertInstance` for what a move or a placement sets; the other columns take their
 * defaults. $1 container, $2 template, $3 quantity, $4 instance data (JSON text), $5 notes, $6 identified.
 */
export const insertInstanceStatement: DirectStatement = {
  name: 'inventory_insert_instance_direct',
  text: `insert into item_instances (container_id, item_template_id, quantity, instance_data, notes, is_identified)
values ($1, $2, $3, coalesce($4::jsonb, '{}'::jsonb), coalesce($5, ''), coalesce($6::boolean, true))
returning ${instanceColumns('item_instances')}`,
};

export const deleteInstanceStatement: DirectStatement = {
  name: 'inventory_delete_instance_direct',
  text: 'delete from item_instances where id = $1',
};
