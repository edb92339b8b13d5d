/**
 * The files of a checkout's index whose content holds any of some fixed
 * strings in any letter case, found by one `git grep --cached -l -i` (git
 * reads the blobs from its object store, never the work tree; ignoring case
 * gives a superset of what a case-sensitive reader wants, and lets a reader
 * whose rule ignores case use it): a reader that wants the few files
 * naming an API group (the Argo CD and Flux objects) then reads those only,
 * not every YAML file of a 100k-file repository. What the index holds is
 * what the work tree holds only for the files `checkoutBlobIds` vouches for;
 * the caller reads the others.
 */
import { gitInCheckout } from './checkoutBlobIds';

/** git grep's exit code when nothing matched (git-grep(1)). */
const NO_MATCH = 'exit code 1';

/**
 * The index's paths whose content holds any of `needles` (in any case); undefined when
 * git cannot tell (no checkout), so the caller reads every file.
 */
export async function checkoutFilesContaining(
  dir: string,
  needles: readonly string[],
): Promise<Set<string> | undefined> {
  try {
    const listing = await gitInCheckout(dir, [
      'grep',
      '--cached',
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
