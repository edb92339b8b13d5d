/**
 * The tracked files of a checkout whose content holds any of some fixed
 * strings in any letter case, found by one `git grep -l -i` (git reads them
 * with its own threads; ignoring case gives a superset of what a
 * case-sensitive reader wants, and lets a reader whose rule ignores case use
 * it): a reader that wants the few files naming an API group (the Argo CD and
 * Flux objects) then reads those only, not every YAML file of a 100k-file
 * repository. It searches the work tree, not the index (`--cached`): the
 * publisher's clone is sparse and blob-less (`--filter=blob:none`), and git
 * 2.39 searches the index's left-out entries too, fetching each of their
 * blobs from the remote (the bench repository's 18k); the work tree holds
 * the checked-out files only. Untracked files are not searched: the caller
 * reads every file `git/checkoutListing.ts` does not vouch for.
 */
import { gitInCheckout } from './gitInCheckout';

/** git grep's exit code when nothing matched (git-grep(1)). */
const NO_MATCH = 'exit code 1';

/**
 * The checked-out tracked files whose content holds any of `needles` (in
 * any case); undefined when git cannot tell (no checkout), so the caller
 * reads every file.
 */
export async function checkoutFilesContaining(
  dir: string,
  needles: readonly string[],
): Promise<Set<string> | undefined> {
  try {
    const listing = await gitInCheckout(dir, [
      'grep',
      '-l',
      '-z',
      '-F',
      '-i',
      ...needles.flatMap(needle => ['-e', needle]),
    ]);
    return new Set(listing.split('\0').filter(Boolean));
  } catch (error) {
    return (error as Error).message === NO_MATCH ? new Set() : undefined;
  }
}
