/**
 * The folders a publish run must see: everything `readRepoState` reads and
 * `applyPlan` may write for one cluster, derived from the (possibly
 * overridden) layout, so the sparse checkout stays small on big repositories.
 */
import { posix } from 'node:path';
import {
  clusterKustomizationPath,
  LayoutInput,
  layoutPrefix,
  migConfigPath,
  requestPath,
  resolveLayout,
  workloadDirPath,
} from '../layout/layout';

/** The request a publish run is for: its workload folder and request file. */
export interface SparseScope {
  namespace: string;
  name: string;
}

/**
 * With a scope, only the request's own workload folder and request folder
 * are checked out (what `applyPlan` writes); without one, every workload and
 * request (what a full `readRepoState` reads).
 */
export function sparseFoldersFor(
  layout: LayoutInput,
  cluster: string,
  scope?: SparseScope,
): string[] {
  const resolved = resolveLayout(layout);
  const folder = (p: string) => p.replace(/\/+$/, '');
  const dir = (file: string) => {
    const d = posix.dirname(file);
    return d === '.' ? '' : d;
  };
  const folders = [
    dir(clusterKustomizationPath(resolved, cluster)),
    folder(layoutPrefix(resolved, 'nodePool', { cluster }, 'pool')),
    folder(layoutPrefix(resolved, 'devicePluginConfig', { cluster }, 'config')),
    dir(migConfigPath(resolved, cluster)),
    ...(scope
      ? [
          folder(workloadDirPath(resolved, scope.namespace, scope.name)),
          dir(requestPath(resolved, scope.namespace, scope.name)),
        ]
      : [
          folder(
            layoutPrefix(
              resolved,
              'workloadDir',
              { component: 'c' },
              'namespace',
            ),
          ),
          folder(layoutPrefix(resolved, 'request', { name: 'n' }, 'namespace')),
        ]),
  ];
  return [...new Set(folders)].sort();
}
