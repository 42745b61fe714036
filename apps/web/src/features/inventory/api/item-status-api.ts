import { type GiveBody, itemInstanceSchema, transferResultSchema } from '@haversack/contracts';
import { API_V1, apiRequest } from '../../../lib/http-client';

/** What the tile and the dialog switch on and off (spec/02 §3 instance_data). */
export interface ItemStatusChange {
  is_equipped?: boolean;
  is_attuned?: boolean;
}

/** PATCH item_instances/{id}: equip or attune. The caller shows a refusal (the fourth attunement) itself. */
export async function setItemStatus(id: string, change: ItemStatusChange) {
  const { data } = await apiRequest(`${API_V1}/item_instances/${id}`, {
    method: 'PATCH',
    body: { item_instance: { instance_data: change } },
    schema: itemInstanceSchema,
    toast: false,
  });
  return data;
}

/** POST item_instances/{id}/give: into that character's primary container (issue 12 §8). */
export async function giveItem(id: string, body: GiveBody) {
  const { data } = await apiRequest(`${API_V1}/item_instances/${id}/give`, {
    method: 'POST',
    body,
    schema: transferResultSchema,
    toast: false,
  });
  return data;
}
