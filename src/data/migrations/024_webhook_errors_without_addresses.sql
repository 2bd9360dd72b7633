-- A delivery refused because its host resolved to an address that is not public used to record
-- that address ("vm resolves to 127.0.0.1, which is not a public address"), and any owner of an
-- endpoint could read it in GET /webhooks/{id}/deliveries: what the service's own network calls a
-- name. The sender now records the reason without the address; the reasons already recorded are
-- rewritten to the same words.
UPDATE webhook_deliveries
   SET last_error = 'the host is not a public address'
 WHERE last_error LIKE '% resolves to %, which is not a public address'
    OR last_error LIKE '% has no address';
