import type { Container, ItemInstance } from '@haversack/contracts';
import { MantineProvider } from '@mantine/core';
import { QueryClientProvider } from '@tanstack/react-query';
import { render } from '@testing-library/react';
import type { ReactNode } from 'react';
import { MemoryRouter } from 'react-router';
import { theme } from '../../../app/theme';
import { createQueryClient } from '../../../lib/query-client';

/** An item stack as the server sends it; override what the test is about. */
export function buildItem(overrides: Partial<ItemInstance> = {}): ItemInstance {
  const now = '2026-01-01T00:00:00.000Z';
  return {
    id: 'item-1',
    name: 'Arrow',
    displayName: 'Arrow (20)',
    quantity: 20,
    weight: 0.05,
    totalWeight: 1,
    value: 5,
    value_cp: 5,
    totalValue: 1,
    currency: 'cp',
    tags: ['ammunition'],
    item_template_id: 'template-1',
    item_template: { name: 'Arrow', stack_size: 20, tags: ['ammunition'], metadata: {}, coin: null },
    instance_data: {},
    is_identified: true,
    notes: '',
    container_id: 'container-1',
    created_at: now,
    updated_at: now,
    ...overrides,
  };
}

export function buildContainer(overrides: Partial<Container> = {}): Container {
  const now = '2026-01-01T00:00:00.000Z';
  return {
    id: 'container-1',
    name: 'Backpack',
    description: '',
    max_weight: 50,
    max_slots: 20,
    current_weight: 0,
    items_count: 0,
    total_value_gp: 0,
    total_value_cp: 0,
    capacity: { used: 0, max: 50, slots_used: 0, slots_max: 20, enforces: { weight: true, slots: true } },
    owner: { type: 'character', id: 'character-1', name: 'Aria' },
    is_primary: true,
    character_id: 'character-1',
    party_id: null,
    visibility: 'private',
    can_act: true,
    created_at: now,
    updated_at: now,
    ...overrides,
  };
}

/** A party's stash: a container the party owns, no character's. */
export function buildPartyStash(
  party: { id: string; name: string },
  overrides: Partial<Container> = {},
): Container {
  return buildContainer({
    id: 'stash-1',
    name: 'Party Stash',
    owner: { type: 'party', id: party.id, name: party.name },
    character_id: null,
    party_id: party.id,
    is_primary: false,
    ...overrides,
  });
}

/** Render inside the app's providers (Mantine in test mode, a query client, a router). */
export function renderWithProviders(ui: ReactNode) {
  const queryClient = createQueryClient();
  return {
    queryClient,
    ...render(
      <MantineProvider env="test" theme={theme}>
        <QueryClientProvider client={queryClient}>
          <MemoryRouter>{ui}</MemoryRouter>
        </QueryClientProvider>
      </MantineProvider>,
    ),
  };
}
