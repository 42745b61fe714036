import { useId } from 'react';

/**
 * A draggable id unique to one mounted element. One item can be on screen twice (both panels showing a
 * container, a panel that showed it a moment ago). dnd-kit keeps one node per id: when one of two
 * draggables sharing an id unmounts, it forgets the id for the other too, whose drags then never start
 * (the pointer selects text instead). The payload (`data`) says what is dragged; the id only tells
 * elements apart.
 */
export function useDragId(subject: string): string {
  return `${subject}@${useId()}`;
}
