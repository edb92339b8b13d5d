/**
 * The last check of a release before anything is written or pushed: every
 * kustomization root it touches is built with the real kustomize before and
 * after, and the difference must be what the release plan says.
 *
 * - A root that built before builds after.
 * - Nothing appears. What disappears is the product's own (managed objects,
 *   the request's workload).
 * - What changes: the pools the request held (ledger and limits), the
 *   sharing ConfigMaps (only the keys of configs the plan removes go; the
 *   others keep their content), and an existing workload, which no longer
 *   carries the request.
 */
import {
  GpuInputError,
  gpuAnnotationKeys,
  KUEUE_API_VERSION,
  type ClusterProfile,
  type ReleasePlan,
} from '@gpu-gitops/plugin-gpu-common';
import type { BuiltObject } from '../../kustomize/build';
import type { BuildRootOptions } from '../../kustomize/buildRoot';
import { getIn } from '../../repo/yamlObjects';
import { deepEqual } from '../canonical';
import { describeBuilt } from '../gpuWorkloadCheck';
import { isManagedObject, isOwnedByRequest } from '../ownership';
import {
  buildTouchedRoots,
  builtObjectId,
  readAfterChange,
} from '../rootBuilds';
import { FsRepoTree, type RepoTree } from '../../repo/tree';
import { unadoptedTemplates } from './unadoptMachineDeployments';
import type { ChangeSet } from '../types';
import type { VerifyChangeResult } from '../verifyChange';
import { POOL_OBJECT_KINDS } from '../../repo/machineDeploymentPools';
import { changesOnlyTopologyEntries } from '../../repo/topologyMachineDeployments';
import { isGpuConfigsDelivery } from '../workloadCluster/gpuConfigsDelivery';
import {
  carriedCopyProblems,
  carriedGpuConfigMaps,
} from '../workloadCluster/carriedCopies';

export interface VerifyReleaseOptions {
  /** The checkout the release was computed on. */
  dir: string;
  /**
   * The checkout's reader (default: a plain reader of `dir`): a git
   * checkout's blob ids key a big root's chunks, so its unchanged files
   * are not read (`kustomize/chunkedBuild.ts`).
   */
  tree?: RepoTree;
  changeSet: ChangeSet;
  plan: ReleasePlan;
  cluster: ClusterProfile;
  kustomize?: BuildRootOptions;
}

function refuse(message: string): never {
  throw new GpuInputError([{ path: 'repository', rule: 'verify', message }]);
}

/** Keys of a ConfigMap's `data` that went or changed, other than those the plan removes. */
function configMapProblems(
  before: BuiltObject,
  after: BuiltObject,
  removable: Set<string>,
): string[] {
  const oldData = (getIn(before, 'data') as Record<string, string>) ?? {};
  const newData = (getIn(after, 'data') as Record<string, string>) ?? {};
  return Object.keys(oldData)
    .filter(key => key !== 'config.yaml' && newData[key] !== oldData[key])
    .filter(key => !(removable.has(key) && !(key in newData)))
    .map(key => `${describeBuilt(after)}: key "${key}" changed or went away`);
}

/** True when a changed object is one the release may change. */
function releaseMayChange(
  old: BuiltObject,
  o: BuiltObject,
  plan: ReleasePlan,
  cluster: ClusterProfile,
): boolean {
  const existing = plan.request.spec.workload.existing;
  if (POOL_OBJECT_KINDS.includes(o.kind)) {
    return plan.pools.some(p => p.name === o.metadata.name);
  }
  // A topology pool's ledger and size are on its Cluster's worker entry.
  if (o.kind === 'Cluster') {
    return changesOnlyTopologyEntries(
      old,
      o,
      plan.pools.map(p => p.name),
    );
  }
  // The product's queues shrink with the pools they are planned from.
  if (o.apiVersion === KUEUE_API_VERSION) return isManagedObject(o);
  if (isGpuConfigsDelivery(o)) return true;
  if (o.kind === 'ConfigMap') {
    return [cluster.devicePluginConfigMap, cluster.migPartedConfigMap].some(
      ref =>
        ref.name === o.metadata.name && ref.namespace === o.metadata.namespace,
    );
  }
  if (existing) {
    return (
      o.kind === existing.kind &&
      o.metadata.name === existing.name &&
      o.metadata.namespace === plan.request.metadata.namespace
    );
  }
  return false;
}

export async function verifyRelease(
  options: VerifyReleaseOptions,
): Promise<VerifyChangeResult> {
  const { plan, cluster } = options;
  const { namespace, name } = plan.request.metadata;
  const id = `${namespace}/${name}`;
  const removableKeys = new Set(plan.unusedDevicePluginConfigs);
  const result: VerifyChangeResult = { verified: [], unverifiable: [] };
  const problems: string[] = [];
  const mayChange = (old: BuiltObject, o: BuiltObject) =>
    releaseMayChange(old, o, plan, cluster);

  const tree = options.tree ?? new FsRepoTree(options.dir);
  const readAfter = readAfterChange(tree, options.changeSet);
  // The GPU ConfigMaps a management root carries to its workload cluster
  // are judged as if built: only those reach the device plugin there.
  const withCarried = (objects: BuiltObject[]) => [
    ...objects,
    ...carriedGpuConfigMaps(objects, cluster),
  ];
  for (const build of await buildTouchedRoots(
    options.dir,
    options.changeSet,
    options.kustomize,
    undefined,
    tree,
  )) {
    const { root, before: was, after: now } = build;
    if (was.error !== undefined) {
      result.unverifiable.push({ root, reason: was.error });
      continue;
    }
    if (now.error !== undefined) {
      refuse(
        `the release would break \`kustomize build ${root}\`: ${now.error}. Nothing was written.`,
      );
    }
    const before = new Map(
      withCarried(was.objects!).map(o => [builtObjectId(o), o]),
    );
    const after = new Map(
      withCarried(now.objects!).map(o => [builtObjectId(o), o]),
    );
    problems.push(...(await carriedCopyProblems(build, readAfter, cluster)));
    const unadopted = unadoptedTemplates(
      was.objects!,
      plan.pools,
      cluster.labelDomain,
    );
    problems.push(
      ...releasedRootProblems(root, before, after, {
        id,
        cluster,
        removableKeys,
        unadopted,
        mayChange,
      }),
    );
    result.verified.push(root);
  }
  if (problems.length > 0) {
    refuse(
      `the release does not mean what its plan says, so nothing was written:\n- ${problems.join('\n- ')}`,
    );
  }
  return result;
}

/** What the release would change in one root's build that it must not. */
function releasedRootProblems(
  root: string,
  before: Map<string, BuiltObject>,
  after: Map<string, BuiltObject>,
  judge: {
    id: string;
    cluster: VerifyReleaseOptions['cluster'];
    removableKeys: Set<string>;
    unadopted: Set<string>;
    mayChange: (old: BuiltObject, o: BuiltObject) => boolean;
  },
): string[] {
  const { id, cluster, removableKeys, unadopted, mayChange } = judge;
  const found: string[] = [];
  for (const [key, o] of before) {
    const next = after.get(key);
    if (!next) {
      const ours =
        isManagedObject(o) ||
        isOwnedByRequest(o, id, cluster.labelDomain) ||
        (o.kind === 'KubeadmConfigTemplate' && unadopted.has(o.metadata.name));
      if (!ours) {
        found.push(
          `${root}: ${describeBuilt(o)} would disappear, and the product does not manage it`,
        );
      }
      continue;
    }
    if (deepEqual(o, next)) continue;
    if (!mayChange(o, next)) {
      found.push(
        `${root}: ${describeBuilt(o)} would change, and the release does not touch it`,
      );
    } else if (o.kind === 'ConfigMap' && !isGpuConfigsDelivery(o)) {
      found.push(
        ...configMapProblems(o, next, removableKeys).map(p => `${root}: ${p}`),
      );
    } else if (
      !POOL_OBJECT_KINDS.includes(o.kind) &&
      JSON.stringify(next).includes(
        `"${gpuAnnotationKeys(cluster.labelDomain).request}":"${id}"`,
      )
    ) {
      found.push(`${root}: ${describeBuilt(o)} still carries ${id}`);
    }
  }
  for (const [key, o] of after) {
    if (!before.has(key)) {
      found.push(`${root}: ${describeBuilt(o)} would appear`);
    }
  }
  return found;
}
