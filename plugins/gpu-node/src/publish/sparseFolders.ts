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
  resolveLayout,
} from '../layout/layout';

export function sparseFoldersFor(
  layout: LayoutInput,
  cluster: string,
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
    folder(
      layoutPrefix(resolved, 'workloadDir', { component: 'c' }, 'namespace'),
    ),
    folder(layoutPrefix(resolved, 'request', { name: 'n' }, 'namespace')),
  ];
  return [...new Set(folders)].sort();
}
