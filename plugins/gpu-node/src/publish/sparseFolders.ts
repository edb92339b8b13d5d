/**
 * The folders a run must see, derived from the (possibly overridden) layout,
 * so the sparse checkout of a big repository stays small: the cluster's
 * folder (its GPU folder, and the hand-written NodePools a new pool must not
 * collide with), every workload and every request. A request for an existing
 * workload sees the whole repository: its bases and overlays may live
 * anywhere.
 */
import { posix } from 'node:path';
import type { GpuRequest } from '@gpu-gitops/plugin-gpu-common';
import {
  clusterScopePath,
  LayoutInput,
  layoutPrefix,
  migConfigPath,
  resolveLayout,
} from '../layout/layout';

/** A layout prefix as a folder (no trailing slash). */
const folder = (p: string) => p.replace(/\/+$/, '');

/** The whole repository, as `GitOpsRepository` checkout folders. */
export const WHOLE_REPOSITORY = [''];

/** @public */
export function sparseFoldersFor(
  layout: LayoutInput,
  cluster: string,
  request?: Pick<GpuRequest, 'spec'>,
): string[] {
  if (request?.spec.workload.existing) return WHOLE_REPOSITORY;
  const resolved = resolveLayout(layout);
  const folders = [
    ...clusterFoldersFor(resolved, cluster),
    folder(
      layoutPrefix(resolved, 'workloadDir', { component: 'c' }, 'namespace'),
    ),
    folder(layoutPrefix(resolved, 'request', { name: 'n' }, 'namespace')),
  ];
  return [...new Set(folders)].sort();
}

/**
 * The folders of one cluster's GPU state: its folder, where its pools,
 * device-plugin configs and mig-parted config live (the same folder unless
 * the layout moves them). The updater's "was this branch touched" rule
 * (`baseMoveTouches.ts`) reads them too.
 */
export function clusterFoldersFor(
  layout: LayoutInput,
  cluster: string,
): string[] {
  const resolved = resolveLayout(layout);
  const dir = (file: string) => {
    const d = posix.dirname(file);
    return d === '.' ? '' : d;
  };
  return [
    clusterScopePath(resolved, cluster),
    folder(layoutPrefix(resolved, 'nodePool', { cluster }, 'pool')),
    folder(layoutPrefix(resolved, 'devicePluginConfig', { cluster }, 'config')),
    dir(migConfigPath(resolved, cluster)),
  ];
}
