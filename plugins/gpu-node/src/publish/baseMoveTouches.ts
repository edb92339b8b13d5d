/**
 * Whether the base's move since a request branch was rendered can change
 * what re-rendering that branch would write: the one rule that lets the
 * updater leave most of a thousand open pull requests alone after a push to
 * the base (issue 24), instead of re-rendering every one of them.
 *
 * A branch's render reads and writes, on its base:
 * - its cluster's folders (`clusterFoldersFor`): the product's pools and
 *   their ledgers, the hand-written NodePools a new pool must not collide
 *   with, the device-plugin configs and the mig-parted config; a layout
 *   that shares one of them between clusters shares the scope too;
 * - the files its own commit writes (request file, pool, configs, the
 *   kustomizations that list them) and the workload folders those files lie
 *   in (another request taking the same workload name lands there);
 * - for a request on an existing workload, the workload's bases and
 *   overlays, which may live anywhere: there, everything but other
 *   clusters' folders counts.
 * Other workloads and requests are read for their names only, and a name
 * can only collide inside the folders above, so a base change elsewhere
 * cannot change the render. What the rule cannot decide (a branch that is
 * not one commit on a base, a diff git cannot give) is the caller's to count
 * as touched: re-rendering an unaffected branch costs time, skipping an
 * affected one leaves a wrong pull request open.
 */
import {
  pathReachesCluster,
  LayoutInput,
  matchLayoutValues,
  workloadDirPath,
} from '../layout/layout';
import { clusterFoldersFor } from './sparseFolders';

export interface BranchScopeInput {
  layout: LayoutInput;
  /** The branch's cluster (its request's `spec.cluster`, resolved to a profile name). */
  cluster: string;
  /** The request works on an existing workload (its render reads the whole repository). */
  existingWorkload: boolean;
  /** The paths the branch's own commit changes. */
  branchPaths: readonly string[];
}

const within = (path: string, folder: string) =>
  folder === '' || path === folder || path.startsWith(`${folder}/`);

/** True when one of `basePaths` (what the base changed) lies in what the branch's render reads or writes. */
export function baseMoveTouches(
  input: BranchScopeInput,
  basePaths: readonly string[],
): boolean {
  const { layout, cluster, branchPaths } = input;
  const workloadFolders = branchPaths.flatMap(p => {
    const values = matchLayoutValues(layout, 'workloadDir', {}, p, {
      folder: true,
    });
    return values
      ? [workloadDirPath(layout, values.namespace, values.component)]
      : [];
  });
  const folders = [...clusterFoldersFor(layout, cluster), ...workloadFolders];
  const files = new Set(branchPaths);
  return basePaths.some(
    p =>
      files.has(p) ||
      folders.some(f => within(p, f)) ||
      (input.existingWorkload && pathReachesCluster(layout, cluster, p)),
  );
}
