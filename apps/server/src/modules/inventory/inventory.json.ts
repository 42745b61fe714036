import {
  type Container,
  type Currency,
  coinOfSystemKey,
  copperToGp,
  type ItemInstance,
  roundLoadWeight,
  roundWeight,
} from '@haversack/contracts';
import type { ContainerContext, ContainerUsage, InstanceRow, TemplateRow } from './inventory.repository.js';
import { effectiveFacts, enforcedLimits, limitOf } from './inventory-rules.js';

/** The template columns an instance's JSON uses (lists read only these: no description, no search vector). */
export type InstanceTemplate = Pick<
  TemplateRow,
  'id' | 'name' | 'weight' | 'baseValue' | 'currency' | 'stackSize' | 'tags' | 'metadata' | 'systemKey'
>;

export function templateFacts(template: InstanceTemplate) {
  return {
    name: template.name,
    weight: template.weight,
    baseValue: template.baseValue,
    currency: template.currency as Currency,
    stackSize: template.stackSize,
  };
}

export function toInstanceJson(instance: InstanceRow, template: InstanceTemplate): ItemInstance {
  const facts = effectiveFacts(templateFacts(template), instance.instanceData);
  return {
    id: instance.id,
    name: facts.name,
    displayName: instance.quantity > 1 ? `${facts.name} (${instance.quantity})` : facts.name,
    quantity: instance.quantity,
    weight: facts.weight,
    totalWeight: roundWeight(facts.weight * instance.quantity),
    value: facts.value,
    value_cp: facts.valueCp,
    totalValue: copperToGp(facts.valueCp * instance.quantity),
    currency: facts.currency,
    tags: template.tags,
    item_template_id: template.id,
    item_template: {
      name: template.name,
      stack_size: template.stackSize,
      tags: template.tags,
      metadata: template.metadata,
      coin: coinOfSystemKey(template.systemKey),
    },
    instance_data: instance.instanceData,
    is_identified: instance.isIdentified,
    notes: instance.notes,
    container_id: instance.containerId,
    created_at: instance.createdAt.toISOString(),
    updated_at: instance.updatedAt.toISOString(),
  };
}

export function toContainerJson(
  context: ContainerContext,
  usage: ContainerUsage | undefined,
  canAct: boolean,
): Container {
  const c = context.container;
  const used = usage ?? { weight: 0, slots: 0, valueCp: 0 };
  return {
    id: c.id,
    name: c.name,
    description: c.description,
    max_weight: c.maxWeight,
    max_slots: c.maxSlots,
    current_weight: roundLoadWeight(used.weight),
    items_count: used.slots,
    total_value_gp: copperToGp(used.valueCp),
    total_value_cp: used.valueCp,
    capacity: {
      used: roundLoadWeight(used.weight),
      max: limitOf(c.maxWeight),
      slots_used: used.slots,
      slots_max: limitOf(c.maxSlots),
      enforces: enforcedLimits(context.party?.encumbranceStyle ?? null),
    },
    owner: context.character
      ? { type: 'character', id: context.character.id, name: context.character.name }
      : { type: 'party', id: c.partyId ?? '', name: context.party?.name ?? '' },
    is_primary: c.isPrimary,
    character_id: c.characterId,
    party_id: c.partyId,
    visibility: 'private',
    can_act: canAct,
    created_at: c.createdAt.toISOString(),
    updated_at: c.updatedAt.toISOString(),
  };
}
