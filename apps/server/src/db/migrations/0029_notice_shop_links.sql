-- A purchase's notice led to /shops/{id}, the page of a shop template, with the id of a deployed shop:
-- "Shop Not Found". It leads to the deployed shop.
UPDATE "notifications"
SET "payload" = jsonb_set("payload", '{link,path}', to_jsonb('/shops/instances/' || substring("payload"->'link'->>'path' from 8)))
WHERE "payload"->'link'->>'kind' = 'shop' AND "payload"->'link'->>'path' NOT LIKE '/shops/instances/%';
