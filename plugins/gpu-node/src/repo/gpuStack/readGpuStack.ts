/**
 * What the repository runs on a cluster's GPU nodes beyond what the product
 * assumes, read from the cluster's files (`clusterReleaseFiles`: its own
 * folder and every file outside all clusters' folders): the planner's
 * `RepoState.gpuStack`, and what the bootstrap adapts its GPU Operator to.
 */
import type {
  ClusterGpuStack,
  ClusterProfile,
  RepoState,
} from '@gpu-gitops/plugin-gpu-common';
import {
  LOCAL_CHART_APPLIER,
  LOCAL_CHART_APPLIER_WORDS,
} from '../../changes/bootstrap/helmReleases/localChartReleases';
import type { RepositoryFile } from '../../changes/bootstrap/helmReleases/valuesConfigMaps';
import { anyOfWords } from '../anyOfWords';
import { mayHoldGpuConfigMap } from '../handWrittenConfigMaps';
import type { RepoTree } from '../tree';
import { chartFeatureDiscovery } from './chartFeatureDiscovery';
import { deployedDevicePlugins } from './deployedDevicePlugins';
import { migManagerConfigElsewhere } from './migManagerConfigElsewhere';
import { migManagerOff } from './migManagerOff';
import { operatorSharesByDefault } from './operatorSharesByDefault';

/**
 * Words a file must hold (in some letter case) for the release readers to
 * take anything from it (beyond the values files a release names, which
 * `tree` reads): the charts' names or a `chartRef` (`findHelmReleases`,
 * kustomize `helmCharts` included) and the device plugin's image
 * (`devicePluginObjects.ts`). A release of a chart folder of the repository
 * names none: only the folder's own files do, which the readers open
 * through `tree` (`LOCAL_CHART_APPLIER`). Also `git grep` needles
 * (`GPU_STACK_NEEDLES`).
 */
export const STACK_WORDS = [
  'gpu-operator',
  'nvidia-device-plugin',
  'chartRef',
  'k8s-device-plugin',
  'dra-driver',
];

/** Text holding a stack word, in any letter case. */
export const STACK_MENTION = anyOfWords(STACK_WORDS, 'i');

/**
 * A node class decides the stack only when it runs Bottlerocket
 * (`devicePluginObjects.ts`: `amiFamily: Bottlerocket` or an alias
 * `bottlerocket@…`), and only as a document's own top-level `kind`: every
 * NodePool names `kind: EC2NodeClass` in its `nodeClassRef`, so that word
 * alone would count every pool file.
 */
const isBottlerocketNodeClass = (text: string) =>
  /^kind:\s*["']?EC2NodeClass\b/m.test(text) && /bottlerocket/i.test(text);

/** A ConfigMap (or kustomize generator) a Flux release's `spec.valuesFrom` may name (`valuesConfigMaps`). */
const VALUES_SOURCE = /ConfigMap|configMapGenerator/;

/**
 * Text every file with a role (`gpuStackFileRole`) holds, in some letter
 * case: each test below needs one of them (`STACK_WORDS`,
 * `LOCAL_CHART_APPLIER_WORDS`, `bottlerocket`, and `ConfigMap` for both the
 * hand-written configs and `VALUES_SOURCE`), so `git grep -i` for these
 * names a superset of the files the readers can use (`gpuStackFiles.ts`).
 */
export const GPU_STACK_NEEDLES = [
  ...STACK_WORDS,
  ...LOCAL_CHART_APPLIER_WORDS,
  'bottlerocket',
  'ConfigMap',
];

/**
 * What a file of this text can be to `readGpuStack`: a file that may declare
 * a release, a node class or a ConfigMap of device-plugin configs
 * (`release`), a ConfigMap a Flux release may take values from
 * (`valuesSource`, read only when `releasesTakeValuesFrom`), or
 * nothing (the readers skip it). The allocation index passes the readers
 * only the files that can matter, and reads the stack again only when one
 * of them (or a file the last read opened through its tree, such as a
 * values file) changes.
 *
 * @public
 */
export function gpuStackFileRole(
  text: string,
): 'release' | 'valuesSource' | undefined {
  // A hand-written ConfigMap of device-plugin configs may hold the GPU
  // Operator's default config (`operatorSharesByDefault`), in any file.
  if (
    STACK_MENTION.test(text) ||
    LOCAL_CHART_APPLIER.test(text) ||
    isBottlerocketNodeClass(text) ||
    mayHoldGpuConfigMap(text)
  ) {
    return 'release';
  }
  return VALUES_SOURCE.test(text) ? 'valuesSource' : undefined;
}

/**
 * Whether any of these texts (of `release` files) may declare a release
 * that takes values from ConfigMaps (Flux's `spec.valuesFrom`).
 *
 * @public
 */
export function releasesTakeValuesFrom(texts: Iterable<string>): boolean {
  for (const text of texts) {
    if (STACK_MENTION.test(text) && /valuesFrom/.test(text)) return true;
  }
  return false;
}

/**
 * What the repository runs on `cluster`'s GPU nodes, from `files`
 * (`clusterReleaseFiles`, or the allocation index's same selection);
 * `tree` reads the values files the releases name. `configs`: the
 * device-plugin configs `readRepoState` read for the cluster, where the
 * GPU Operator's default config is looked up (else in the hand-written
 * ConfigMaps among `files`).
 *
 * @public
 */
export async function readGpuStack(
  tree: RepoTree,
  cluster: ClusterProfile,
  files: RepositoryFile[],
  configs?: Pick<RepoState, 'devicePluginConfigs' | 'handWrittenConfigMaps'>,
): Promise<ClusterGpuStack> {
  const migManager = await migManagerOff(tree, files);
  const migConfigElsewhere = await migManagerConfigElsewhere(
    tree,
    cluster,
    files,
  );
  const operatorDefault = await operatorSharesByDefault(
    tree,
    cluster,
    files,
    configs,
  );
  const discovery = await chartFeatureDiscovery(tree, cluster, files);
  return {
    ...(discovery ? { chartFeatureDiscovery: discovery } : {}),
    ...(operatorDefault ? { operatorSharesByDefault: operatorDefault } : {}),
    ...(migManager ? { migManagerOff: migManager } : {}),
    ...(migConfigElsewhere
      ? { migManagerConfigElsewhere: migConfigElsewhere }
      : {}),
    ...(await deployedDevicePlugins(tree, cluster, files)),
  };
}
