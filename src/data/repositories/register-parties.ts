import type { RegisterParty } from '../../register/record.ts';
import type { Queryable } from '../db.ts';

// The offices' applicant and representative records the mirror keeps (register_parties, migration
// 022), and the owners of the marks that name them by key (marks.owner_key).

/** A party record to write, with the as-of date of its version. */
export type PartyUpsert = RegisterParty & { asOf: string | null };

const RECORDSET = `jsonb_to_recordset($1::text::jsonb) AS x(
  office text, role text, key text, name text, "countryCode" text, "rawPayload" jsonb,
  "asOf" date)`;

/**
 * Writes a batch of party records (distinct by office, role and key) in the import's transaction,
 * under its lock: inserts and updates the records, deletes those the office deleted, each unless
 * the stored version is as of a later day (mark_supersedes); then gives every mark naming a changed
 * applicant by key its new name and country (null for a deleted one), with a new change sequence,
 * as an import of the mark would. Returns how many records were new, updated and deleted.
 */
export async function writeParties(
  tx: Queryable,
  parties: readonly PartyUpsert[],
): Promise<{ inserted: number; updated: number; deleted: number }> {
  if (parties.length === 0) return { inserted: 0, updated: 0, deleted: 0 };
  const kept = JSON.stringify(parties.filter((p) => !p.deleted));
  const gone = JSON.stringify(parties.filter((p) => p.deleted));
  const rows = await tx.query<{ inserted: number; updated: number; deleted: number }>(
    `WITH written AS (
         INSERT INTO register_parties AS p (office, role, party_key, name, country_code, raw_payload, as_of)
         SELECT office, role, key, name, "countryCode", "rawPayload", "asOf" FROM ${RECORDSET}
         ON CONFLICT (office, role, party_key) DO UPDATE SET
           name = excluded.name, country_code = excluded.country_code,
           raw_payload = excluded.raw_payload, as_of = excluded.as_of, updated_at = now_ms()
         WHERE mark_supersedes(excluded.as_of, p.as_of)
         RETURNING office, role, party_key, (xmax = 0) AS inserted
       ), removed AS (
         DELETE FROM register_parties p
          USING jsonb_to_recordset($2::text::jsonb) AS d(office text, role text, key text, "asOf" date)
          WHERE p.office = d.office AND p.role = d.role AND p.party_key = d.key
            AND mark_supersedes(d."asOf", p.as_of)
         RETURNING p.office, p.role, p.party_key
       ), owners AS (
         UPDATE marks m
            SET owner_name = o.name, owner_country_code = o.country_code,
                change_seq = nextval('marks_change_seq'), updated_at = now_ms()
           FROM (SELECT w.office, w.party_key, x.name, x."countryCode" AS country_code
                   FROM written w JOIN ${RECORDSET} ON x.office = w.office AND x.key = w.party_key
                                                   AND x.role = w.role
                  WHERE w.role = 'applicant'
                 UNION ALL
                 SELECT office, party_key, NULL, NULL FROM removed WHERE role = 'applicant') o
          WHERE m.jurisdiction = o.office AND m.owner_key = o.party_key
            AND (m.owner_name, m.owner_country_code) IS DISTINCT FROM (o.name, o.country_code)
       )
       SELECT count(*) FILTER (WHERE inserted)::int AS inserted,
              count(*) FILTER (WHERE NOT inserted)::int AS updated,
              (SELECT count(*) FROM removed)::int AS deleted
         FROM written`,
    [kept, gone],
  );
  const row = rows[0];
  return { inserted: row?.inserted ?? 0, updated: row?.updated ?? 0, deleted: row?.deleted ?? 0 };
}
