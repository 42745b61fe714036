import { itemSearchQuerySchema, itemTemplateListQuerySchema } from '@haversack/contracts';
import { type ZodType, z } from 'zod';

/*
 * The OpenAPI words and the parameter names of the template searches. They live here, not in
 * packages/contracts with the schemas: the web's first load (/login) carries the contracts and sits at its
 * budget, and neither the words nor the aliases are the web's business.
 */

/**
 * The one rule of both template searches, item_templates (one's own) and search/items (the public
 * catalogue): items.repository's textCondition, and the in-memory index that answers search/items.
 */
export const searchTermRule =
  'Finds the templates holding every word of the search, in any order, in the name, description or tags, without regard to case or accents (Turkish ı/İ included): "dagger naive" finds "Naïve Dagger", "krakow" a description that says "Kraków", and a word may be part of a longer one ("sword" finds "Longsword"). The English full-text search of the name and description finds more: other forms of a word ("swords" finds "sword"). A search with "quoted phrases", -word (left out) or `or` is a full-text query, searched as written (with case and accents). Plain words are also read in the catalogue\'s spellings ("arrows" → "arrow", "gp" → "gold piece"). A trailing * or an empty search finds everything. search/items ranks first the templates whose name holds the search (the whole name, its first words, its start, every word at a word\'s start, the search in it, every word in it), the shorter name first, then by full-text rank; item_templates is ordered by `sort`.';

/** How the tag filters of both template searches compare a tag. */
export const tagFilterRule =
  'Compared without regard to case or accents, as a tag is shown: "ISLAK" finds the tag "ıslak", "legendaire" "légendaire".';

/** The fields of a query schema (a z.preprocess of an object): to describe them in the OpenAPI document. */
function queryFields(schema: ZodType): Record<string, ZodType> {
  const object = schema instanceof z.ZodPipe ? schema.out : schema;
  if (!(object instanceof z.ZodObject)) throw new Error('a query schema is an object');
  return object.shape as Record<string, ZodType>;
}

function describeFields(schema: ZodType, descriptions: Record<string, string>): void {
  const fields = queryFields(schema);
  for (const [name, description] of Object.entries(descriptions)) {
    const field = fields[name];
    if (!field) throw new Error(`no query field ${name}`);
    z.globalRegistry.add(field, { description });
  }
}

describeFields(itemTemplateListQuerySchema, {
  search: searchTermRule,
  tag: `One tag the template carries. ${tagFilterRule}`,
});
describeFields(itemSearchQuerySchema, {
  search: searchTermRule,
  tags: `Tags the template must all carry: comma-separated, the key repeated, or \`tags[]\`; \`tag\` is taken too. ${tagFilterRule}`,
});

/**
 * search/items' tags, also sent as `tags[]` (PHP and Rails style) or `tag` (item_templates' name for it),
 * merged into `tags`: a filter under another name is not dropped, which would list the whole catalogue.
 */
export function withTagAliases(query: unknown): unknown {
  if (!query || typeof query !== 'object') return query;
  const { tag, 'tags[]': bracketed, ...rest } = query as Record<string, unknown>;
  const given = [rest.tags, bracketed, tag].filter((value) => value !== undefined);
  if (given.length === 0) return rest;
  if (given.length === 1) return { ...rest, tags: given[0] };
  return {
    ...rest,
    tags: given.flatMap((value) =>
      Array.isArray(value) ? value : typeof value === 'string' ? value.split(',') : [value],
    ),
  };
}
