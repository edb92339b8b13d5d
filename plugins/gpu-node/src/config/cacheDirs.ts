import os from 'node:os';
import path from 'node:path';

/** The root of every cached clone when `gpu.gitops.cacheDir` is not set. */
export const DEFAULT_CACHE_ROOT = path.join(os.tmpdir(), 'gpu-gitops');

/**
 *  The folder of each user of the GitOps repository's clones, under one root.
 *
 * @public
 */
export interface GitOpsCacheDirs {
  /** Working clones of the publishers: the scaffolder actions and the CLI. */
  publish: string;
  /** The gpu backend's allocation index (a bare mirror). */
  index: string;
  /** The gpu backend's review of local pull requests (a bare mirror). */
  review: string;
  /** The gpu backend's updater of open pull requests (working clones). */
  pullRequests: string;
  /** The gpu backend's releases of expired requests (working clones). */
  releases: string;
}

/**
 * Every user gets its own sub-folder of the one root (`gpu.gitops.cacheDir`,
 * default `<os tmpdir>/gpu-gitops`). The index and the review fetch into
 * bare mirrors without the publishers' clone lock, so a shared folder would
 * let a fetch race a publish; the updater re-renders every open pull request
 * on a schedule and the releaser opens expired requests' releases: their own
 * clones keep that from making a user's action wait for the clone lock.
 *
 * @public
 */
export function gitOpsCacheDirs(
  root: string = DEFAULT_CACHE_ROOT,
): GitOpsCacheDirs {
  const resolved = path.resolve(root);
  return {
    publish: path.join(resolved, 'publish'),
    index: path.join(resolved, 'index'),
    review: path.join(resolved, 'review'),
    pullRequests: path.join(resolved, 'pull-requests'),
    releases: path.join(resolved, 'releases'),
  };
}
