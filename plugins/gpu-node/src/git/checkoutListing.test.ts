import { checkoutListingOf } from './checkoutListing';

const BLOB = 'a'.repeat(40);
const OTHER = 'b'.repeat(40);

/** `git ls-files -s -t -m -d -o -z` records, as git prints them. */
const output = [
  `H 100644 ${BLOB} 0\tapps/a.yaml`,
  `H 100644 ${OTHER} 0\tapps/changed.yaml`,
  `C 100644 ${OTHER} 0\tapps/changed.yaml`,
  `H 100644 ${BLOB} 0\tapps/gone.yaml`,
  `R 100644 ${BLOB} 0\tapps/gone.yaml`,
  `S 100644 ${BLOB} 0\tclusters/left-out.yaml`,
  `H 120000 ${BLOB} 0\tlink`,
  `H 160000 ${BLOB} 0\tvendor/sub`,
  '? new.yaml',
  '? nested/',
  '',
].join('\0');

describe('checkoutListingOf', () => {
  it('sorts git’s records as a walk of the disk sees them, with the blob id of each unchanged file', async () => {
    const listing = await checkoutListingOf(output);
    expect(listing).toEqual({
      ids: new Map([
        ['apps/a.yaml', BLOB],
        ['apps/gone.yaml', BLOB],
      ]),
      unmodified: ['apps/a.yaml'],
      toCheck: ['apps/changed.yaml', 'new.yaml'],
      foldersToWalk: ['vendor/sub', 'nested'],
      links: ['link'],
    });
  });

  it('takes a turn of the event loop between records', async () => {
    let turns = 0;
    await checkoutListingOf(output, async () => {
      turns++;
    });
    // Each record once (and the empty one the last NUL leaves): one pass gives the listing and the blob ids.
    expect(turns).toBe(output.split('\0').length);
  });
});
