import type { Active, Over } from '@dnd-kit/core';
import { describe, expect, it } from 'vitest';
import { dragAnnouncements, draggedName } from './drag-announcements';
import type { DraggedItem, DraggedTemplate, DropZone } from './workspace-types';

const gold: DraggedItem = {
  kind: 'item',
  itemId: 'item-1',
  containerId: 'backpack',
  quantity: 25,
  name: 'Gold piece',
  weight: 0.02,
};
const rope: DraggedTemplate = {
  kind: 'template',
  templateId: 'template-1',
  templateName: 'Rope, hempen (50 feet)',
  weight: 10,
};
const stashZone: DropZone = { side: 'right', containerId: 'stash', kind: 'container' };

// dnd-kit's ids, which its default wording read out.
const active = (data: DraggedItem | DraggedTemplate): Active => ({
  id: 'item:4f07c51a@_r_aq_',
  data: { current: data },
  rect: { current: { initial: null, translated: null } },
});
const over = (data: DropZone): Over => ({
  id: 'panel:right',
  disabled: false,
  rect: { width: 400, height: 600, top: 0, left: 500, right: 900, bottom: 600 },
  data: { current: data },
});

const announcements = dragAnnouncements((zone) =>
  zone.containerId === 'stash' ? 'Party Stash' : 'the Marketplace',
);

describe('drag announcements', () => {
  it("name the item and the container, never dnd-kit's ids", () => {
    const args = { active: active(gold), over: over(stashZone) };
    const said = [
      announcements.onDragStart(args),
      announcements.onDragOver(args),
      announcements.onDragEnd(args),
      announcements.onDragCancel(args),
    ];
    expect(said).toEqual([
      'Picked up Gold piece.',
      'Gold piece is over Party Stash.',
      'Gold piece was dropped on Party Stash.',
      'Moving Gold piece was cancelled.',
    ]);
    for (const sentence of said) expect(sentence).not.toMatch(/item:|panel:|draggable|droppable/i);
  });

  it('say when the item is over no panel, and name a Market template by its name', () => {
    expect(announcements.onDragOver({ active: active(gold), over: null })).toBe(
      'Gold piece is no longer over a panel.',
    );
    expect(announcements.onDragEnd({ active: active(rope), over: null })).toBe(
      'Rope, hempen (50 feet) was dropped outside the panels.',
    );
    expect(draggedName(undefined)).toBe('The item');
  });

  it('add what a drop there would meet: a container with no room for the item', () => {
    const full = dragAnnouncements(
      () => 'Party Stash',
      (dragged, zone) =>
        dragged === gold && zone === stashZone ? 'Item(s) would exceed weight limit (no room left)' : null,
    );
    expect(full.onDragOver({ active: active(gold), over: over(stashZone) })).toBe(
      'Gold piece is over Party Stash. Item(s) would exceed weight limit (no room left)',
    );
    expect(full.onDragOver({ active: active(rope), over: over(stashZone) })).toBe(
      'Rope, hempen (50 feet) is over Party Stash.',
    );
  });
});
