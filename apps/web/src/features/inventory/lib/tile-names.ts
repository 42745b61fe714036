import { formatEnUs, type ItemInstance } from '@haversack/contracts';
import { isAttuned, isEquipped } from '../hooks/use-item-status';

/**
 * What a tile's label says after the item's name: "quantity 1", "quantity 1, equipped, attuned". A move on
 * its way adds ", moving" to the label, but not here: it lasts a moment, and does not tell stacks apart.
 */
export function tileLabelDetail(item: ItemInstance): string {
  const status = [isEquipped(item) ? 'equipped' : null, isAttuned(item) ? 'attuned' : null].filter(Boolean);
  return [`quantity ${formatEnUs(item.quantity)}`, ...status].join(', ');
}

/** How a tile, and the buttons beside it, name a stack whose name another tile of its list has too. */
export interface TileNames {
  /** The name in the tile's label: "Shortsword (2 of 2, Silvered)", or the plain name when the label is its own. */
  tile: string;
  /** The item in its buttons' labels ("More actions for X", "Move X to..."): "Arrow (quantity 6)". */
  buttons: string;
}

/** The longest a stack's note may be as the detail that tells it from its twin. */
const TWIN_NOTE_CHARS = 40;

/** The note's first line, cut short at a word where it can be: read after the name, it must stay short. */
function noteDetail(notes: string): string {
  const line = notes.trim().split('\n')[0]?.trim() ?? '';
  if (line.length <= TWIN_NOTE_CHARS) return line;
  const cut = line.slice(0, TWIN_NOTE_CHARS - 1);
  const wordEnd = cut.lastIndexOf(' ');
  return `${(wordEnd > TWIN_NOTE_CHARS / 2 ? cut.slice(0, wordEnd) : cut).trimEnd()}…`;
}

/** Names a screen reader says alike are alike, whatever their case or spaces around them. */
const spokenKey = (text: string) => text.trim().toLocaleLowerCase('en-US');

function groupBy<T>(values: readonly T[], keyOf: (value: T) => string): T[][] {
  const groups = new Map<string, T[]>();
  for (const value of values) {
    const key = keyOf(value);
    const group = groups.get(key);
    if (group) group.push(value);
    else groups.set(key, [value]);
  }
  return [...groups.values()];
}

/**
 * The names that tell apart the stacks of a list whose names repeat (weapons do not stack: two
 * Shortswords of 1 are two tiles), by item id; a name met once is not in it, and keeps its plain names.
 *
 * A tile's label is qualified only when the whole of it (name, quantity, status) is another tile's too:
 * "Shortsword (1 of 2), quantity 1" and "Shortsword (2 of 2, Silvered), quantity 1", with the note's first
 * line where the stack has one; "Arrow, quantity 6" and "Arrow, quantity 4" keep their names. The buttons of
 * every stack of a repeated name say, after the name, as little of its label as tells them apart: the
 * place among its twins when all the name's stacks are alike ("More actions for Shortsword (1 of 2)"), the
 * quantity and status when they differ ("Move Arrow (quantity 6) to..."), both when both are needed
 * ("Longsword (quantity 1, 1 of 2)"). Places count the list's stacks as loaded.
 */
export function tileNamesOf(items: readonly ItemInstance[]): Map<string, TileNames> {
  const names = new Map<string, TileNames>();
  for (const sameName of groupBy(items, (item) => spokenKey(item.name))) {
    if (sameName.length < 2) continue;
    const sameLabels = groupBy(sameName, (item) => spokenKey(tileLabelDetail(item)));
    for (const twins of sameLabels) {
      twins.forEach((item, index) => {
        const place =
          twins.length > 1
            ? [`${index + 1} of ${twins.length}`, noteDetail(item.notes)].filter(Boolean).join(', ')
            : null;
        const told = [sameLabels.length > 1 ? tileLabelDetail(item) : null, place].filter(Boolean).join(', ');
        names.set(item.id, {
          tile: place ? `${item.name} (${place})` : item.name,
          buttons: `${item.name} (${told})`,
        });
      });
    }
  }
  return names;
}
