/**
 * What a request or a release must keep true on a Cluster API management
 * root: the GPU ConfigMaps the ClusterResourceSet carries to the workload
 * cluster are exactly the ones the GPU folder generates. The generated ones
 * are `config.kubernetes.io/local-config` there (`gpuConfigsDelivery.ts`),
 * so kustomize leaves them out of the build and only the carried copies
 * reach the device plugin and the MIG manager: a change to a config key that
 * leaves its carried copy behind would mean nothing on the nodes.
 */
import type { ClusterProfile } from '@gpu-gitops/plugin-gpu-common';
import type { BuiltObject } from '../../kustomize/build';
import { getIn } from '../../repo/yamlObjects';
import { deepEqual } from '../canonical';
import type { RootBuild } from '../rootBuilds';
import { carriedObjects, isCapiCluster } from './carriedManifests';
import { generatedConfigMaps } from './gpuConfigsDelivery';

const refOf = (o: unknown) =>
  `${getIn(o, 'metadata', 'namespace') ?? 'default'}/${getIn(o, 'metadata', 'name')}`;

const isClusterGpuConfigMap = (o: unknown, cluster: ClusterProfile) =>
  getIn(o, 'kind') === 'ConfigMap' &&
  [cluster.devicePluginConfigMap, cluster.migPartedConfigMap].some(
    ref => `${ref.namespace}/${ref.name}` === refOf(o),
  );

/**
 * The cluster's GPU ConfigMaps the root's ClusterResourceSets carry, shaped
 * as built objects: judged like the ones a build applies (a key a request
 * wrote before keeps its content).
 */
export function carriedGpuConfigMaps(
  objects: readonly BuiltObject[],
  cluster: ClusterProfile,
): BuiltObject[] {
  return carriedObjects([...objects])
    .filter(o => isClusterGpuConfigMap(o, cluster))
    .map(o => ({
      ...o,
      metadata: { ...o.metadata, namespace: refOf(o).split('/')[0] },
    }));
}

/** The keys whose content differs between two ConfigMaps' data, either side. */
function differingKeys(a: unknown, b: unknown): string[] {
  const left = (getIn(a, 'data') ?? {}) as Record<string, string>;
  const right = (getIn(b, 'data') ?? {}) as Record<string, string>;
  return [...new Set([...Object.keys(left), ...Object.keys(right)])]
    .filter(key => !deepEqual(left[key], right[key]))
    .sort();
}

/**
 * Where the root's carried GPU ConfigMaps, after the change, disagree with
 * what its kustomizations generate (`read` reads the tree after the
 * change). A root that declares no Cluster API Cluster, or carries no copy
 * of a generated ConfigMap (not delivered: `validate` says so), has none.
 */
export async function carriedCopyProblems(
  build: RootBuild,
  read: (path: string) => Promise<string | undefined>,
  cluster: ClusterProfile,
): Promise<string[]> {
  const objects = build.after.objects ?? [];
  if (!objects.some(isCapiCluster)) return [];
  const carried = carriedGpuConfigMaps(objects, cluster);
  const problems: string[] = [];
  for (const file of build.kustomizationsAfter) {
    const generated = await generatedConfigMaps(read, file, (name, namespace) =>
      isClusterGpuConfigMap(
        { kind: 'ConfigMap', metadata: { name, namespace } },
        cluster,
      ),
    );
    for (const configMap of generated) {
      const copy = carried.find(c => refOf(c) === refOf(configMap));
      if (!copy) continue;
      const keys = differingKeys(copy, configMap);
      if (keys.length === 0) continue;
      problems.push(
        `${build.root}: the copy of ConfigMap ${refOf(configMap)} a ClusterResourceSet carries to the workload cluster differs from the one \`${file}\` generates (${keys.map(k => `key "${k}"`).join(', ')}): the workload cluster's device plugin and MIG manager read only the carried copy`,
      );
    }
  }
  return problems;
}
