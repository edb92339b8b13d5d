import { GPU_BRANCH_PREFIX } from '@gpu-gitops/plugin-gpu-common';

/**
 * The deterministic branch of a request: one request, one branch, so a re-run
 * updates its own PR instead of opening a second one.
 *
 * @public
 */
export function requestBranchName(namespace: string, name: string): string {
  return `${GPU_BRANCH_PREFIX}${namespace}-${name}`;
}

/** The trailer that marks a commit as ours, for this request. */
export function requestTrailer(namespace: string, name: string): string {
  return `Gpu-Request: ${namespace}/${name}`;
}

/**
 * The branch of a request's release (beside its request branch `gpu/<namespace>-<name>`).
 *
 * @public
 */
export function releaseBranchName(namespace: string, name: string): string {
  return `${GPU_BRANCH_PREFIX}release-${namespace}-${name}`;
}

/** The trailer that marks a commit as ours, releasing this request. */
export function releaseTrailer(namespace: string, name: string): string {
  return `Gpu-Release: ${namespace}/${name}`;
}

/**
 * The branch of a cluster's import: one per cluster, so a re-run updates its
 * own pull request.
 *
 * @public
 */
export function importBranchName(cluster: string): string {
  return `${GPU_BRANCH_PREFIX}import-${cluster}`;
}

/** The trailer that marks a commit as ours, importing this cluster's setup. */
export function importTrailer(cluster: string): string {
  return `Gpu-Import: ${cluster}`;
}

/**
 * The branch of a cluster's bootstrap: one per cluster, so a re-run updates
 * its own pull request.
 *
 * @public
 */
export function bootstrapBranchName(cluster: string): string {
  return `${GPU_BRANCH_PREFIX}bootstrap-${cluster}`;
}

/**
 * The trailer that marks a commit as ours, bootstrapping this cluster.
 *
 * @public
 */
export function bootstrapTrailer(cluster: string): string {
  return `Gpu-Bootstrap: ${cluster}`;
}

/** What a commit message's trailer says the branch does: a request, or its release. */
export function readTrailer(
  message: string,
):
  { kind: 'request' | 'release'; namespace: string; name: string } | undefined {
  const match = /^Gpu-(Request|Release): ([a-z0-9-]+)\/([a-z0-9-]+)\s*$/m.exec(
    message,
  );
  if (!match) return undefined;
  return {
    kind: match[1] === 'Request' ? 'request' : 'release',
    namespace: match[2],
    name: match[3],
  };
}
