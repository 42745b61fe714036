-- Rows written before 0021 have no target id, so a character's history (its own rows, and the rows that
-- brought it something) missed the gifts and moves that reached it from another character or the stash.
-- Such a row's destination container still says whose it was: where it belonged to a character other than
-- the row's own, that character is its target, as the rows written since say.
UPDATE "transactions" AS t
SET "target_id" = c."character_id"
FROM "containers" AS c
WHERE t."target_id" IS NULL
  AND t."destination_container_id" = c."id"
  AND c."character_id" IS NOT NULL
  AND c."character_id" IS DISTINCT FROM t."character_id";
