/**
 * git run in a checkout others may read meanwhile, and the file modes whose
 * blob id fully names the file: what the checkout's listing
 * (`checkoutListing.ts`), its grep (`checkoutFilesContaining.ts`) and the
 * committed inputs of a build (`kustomize/committedInputs.ts`) share.
 */
import { gitEnvironment } from './auth';
import { runGit } from './runGit';

/** `100644`/`100755`: regular files, the only entries a blob id fully names. */
export const REGULAR_FILE_MODES = new Set(['100644', '100755']);

/**
 * git in a checkout that may be read by others meanwhile: no optional
 * locks (a status must not refresh, and lock, the index), paths literal.
 */
export function gitInCheckout(dir: string, args: string[]): Promise<string> {
  return runGit(
    dir,
    ['--no-optional-locks', '--literal-pathspecs', ...args],
    gitEnvironment(dir, {}),
  );
}
