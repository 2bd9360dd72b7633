-- Watches gain the attribute `relatedClasses` (default true): records in classes whose goods are
-- related to the watched ones are compared too (src/matching/goods.ts). The watches stored before
-- it get the default written out, so that every watch says what it does.
UPDATE watches
   SET attributes = attributes || '{"relatedClasses": true}'::jsonb
 WHERE watch_type = 'trademark' AND NOT (attributes ? 'relatedClasses');
