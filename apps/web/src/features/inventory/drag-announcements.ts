import type { Announcements, ScreenReaderInstructions } from '@dnd-kit/core';
import { asDropZone, type DropZone } from './workspace-types';

/**
 * What a screen reader is told about a keyboard drag, in the game's words: dnd-kit's own wording reads
 * out the draggable's and the drop zone's ids ("Draggable item item:4f07…@_r_aq_ was moved over
 * droppable area panel:right").
 */
export const dragInstructions: ScreenReaderInstructions = {
  draggable:
    'To pick up an item, press Space. While dragging, Left and Right arrows move it to the panel on that ' +
    'side. Press Space or Enter to drop it there, or Escape to cancel.',
};

/**
 * The name of what is dragged: every payload of the workspace has one (a stack's, a shop's or a loot's
 * stack's name, or a Market template's).
 */
export function draggedName(data: unknown): string {
  if (data && typeof data === 'object') {
    if ('templateName' in data && typeof data.templateName === 'string') return data.templateName;
    if ('name' in data && typeof data.name === 'string') return data.name;
  }
  return 'The item';
}

/**
 * Announcements naming the dragged item and the panel it is over, as the workspace calls it (`zoneName`),
 * and what a drop there would meet (`warningOver`: a container with no room for it).
 */
export function dragAnnouncements(
  zoneName: (zone: DropZone) => string,
  warningOver: (dragged: unknown, over: unknown) => string | null = () => null,
): Announcements {
  const where = (data: unknown) => {
    const zone = asDropZone(data);
    return zone ? zoneName(zone) : 'the other panel';
  };
  return {
    onDragStart: ({ active }) => `Picked up ${draggedName(active.data.current)}.`,
    onDragOver: ({ active, over }) => {
      if (!over) return `${draggedName(active.data.current)} is no longer over a panel.`;
      const warning = warningOver(active.data.current, over.data.current);
      return `${draggedName(active.data.current)} is over ${where(over.data.current)}.${warning ? ` ${warning}` : ''}`;
    },
    onDragEnd: ({ active, over }) =>
      over
        ? `${draggedName(active.data.current)} was dropped on ${where(over.data.current)}.`
        : `${draggedName(active.data.current)} was dropped outside the panels.`,
    onDragCancel: ({ active }) => `Moving ${draggedName(active.data.current)} was cancelled.`,
  };
}
