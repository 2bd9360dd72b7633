import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Db } from '../../src/data/db.ts';
import { listReads, primaryOnly } from '../../src/data/replica.ts';

// Only the identity of the handed-out Db matters here: no statement is run.
function viewCountingDb(): { db: Db; views: () => number } {
  let views = 0;
  const db = {
    withStatementTimeout(ms: number) {
      views += 1;
      return { ...db, deadline: ms } as unknown as Db;
    },
  } as unknown as Db;
  return { db, views: () => views };
}

describe('listReads', () => {
  it('hands out one deadline view per database, the same for every list read from it', async () => {
    const { db, views } = viewCountingDb();
    const lists = listReads(primaryOnly(db), 5000);
    const first = await lists.forOwner('usr_a');
    const again = await lists.forOwner('usr_a');
    const other = await lists.forOwner('usr_b');
    // The alert list keys its coalesced version look-up on this Db: a new view per request made
    // a look-up (and a map entry) per request.
    assert.equal(again, first);
    assert.equal(other, first);
    assert.notEqual(first, db);
    assert.equal(views(), 1);
  });

  it('without a deadline hands out the database itself', async () => {
    const { db } = viewCountingDb();
    assert.equal(await listReads(primaryOnly(db)).forOwner('usr_a'), db);
  });
});
