import type { ItemTemplate } from '@haversack/contracts';
import { useQuery } from '@tanstack/react-query';
import { marketplaceQuery, myTemplatesQuery } from './item-templates-api';

export interface TemplatePickerGroup {
  group: string;
  items: { value: string; label: string }[];
}

/**
 * The item templates a GM may put in a shop or loot template: their own (private ones too: the server
 * takes them, and a GM's homebrew is what such templates are for) before the public catalogue. One list
 * of each, searched alike; a template of their own that is also public is listed once, as theirs.
 */
export function useTemplatePicker(search: string, accept: (template: ItemTemplate) => boolean = () => true) {
  const catalogue = useQuery(
    marketplaceQuery({
      search,
      tags: '',
      minValue: null,
      maxValue: null,
      minWeight: null,
      maxWeight: null,
      page: 1,
    }),
  );
  const mine = useQuery(myTemplatesQuery({ search, page: 1 }));
  const own = (mine.data?.templates ?? []).filter(accept);
  const ownIds = new Set(own.map((t) => t.id));
  const others = (catalogue.data?.templates ?? []).filter((t) => accept(t) && !ownIds.has(t.id));
  return {
    templates: [...own, ...others],
    /** Select's grouped data: empty groups are left out (Mantine draws a group's heading even then). */
    groups: (label: (template: ItemTemplate) => string): TemplatePickerGroup[] =>
      [
        { group: 'Your items', items: own.map((t) => ({ value: t.id, label: label(t) })) },
        { group: 'Catalogue', items: others.map((t) => ({ value: t.id, label: label(t) })) },
      ].filter((g) => g.items.length > 0),
    isFetching: catalogue.isFetching || mine.isFetching,
  };
}
