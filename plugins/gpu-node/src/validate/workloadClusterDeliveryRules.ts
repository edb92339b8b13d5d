/**
 * A Cluster API management root (it builds a `cluster.x-k8s.io` Cluster) is
 * applied to the management cluster, while the device plugin and the MIG
 * manager read their ConfigMaps in the workload cluster. Each GPU ConfigMap
 * the root's kustomizations generate (or build) must reach a workload
 * Cluster of that root through a ClusterResourceSet selecting it (what the
 * bootstrap writes: `changes/workloadCluster/gpuConfigsDelivery.ts`), as
 * generated, and the management cluster must not apply it itself: it has no
 * GPU nodes, and usually not the operator's namespace, so its apply fails.
 */
import type { BuiltObject, KustomizationGraph } from '../kustomize';
import { deepEqual } from '../changes/canonical';
import {
  carriedToWorkloadClusters,
  isCapiCluster,
} from '../changes/workloadCluster/carriedManifests';
import { generatedConfigMaps } from '../changes/workloadCluster/gpuConfigsDelivery';
import { getIn } from '../repo/yamlObjects';
import type { BuiltRoot } from './builtRoots';
import type { Finding } from './findings';
import { findConfigMaps, type GpuConfigMapNames } from './gpuConfigMaps';
import type { SourceTree } from './sourceTree';

/** The ConfigMap of that name and namespace among delivered manifests (no namespace: `default`). */
function deliveredCopy(manifests: unknown[], configMap: unknown) {
  const key = (o: unknown) =>
    `${getIn(o, 'metadata', 'namespace') ?? 'default'}/${getIn(o, 'metadata', 'name')}`;
  return manifests.find(
    m => getIn(m, 'kind') === 'ConfigMap' && key(m) === key(configMap),
  );
}

/**
 * The GPU ConfigMaps a root's kustomizations generate, as their files say,
 * the ones kustomize leaves out of the build included.
 */
async function generatedGpuConfigMapsOf(
  root: BuiltRoot,
  graph: KustomizationGraph,
  source: SourceTree,
  names: GpuConfigMapNames,
): Promise<unknown[]> {
  const candidates = [...names.devicePlugin, ...names.migParted];
  const wanted = (name: string, namespace: string) =>
    candidates.some(
      c =>
        c.name === name &&
        (c.namespace === undefined || c.namespace === namespace),
    );
  const read = (path: string) => source.tree.readFile(path);
  const out: unknown[] = [];
  for (const folder of root.folders) {
    const file = graph.folders.get(folder)?.file;
    if (file) out.push(...(await generatedConfigMaps(read, file, wanted)));
  }
  return out;
}

export async function checkGpuConfigsDelivery(
  roots: BuiltRoot[],
  graph: KustomizationGraph,
  source: SourceTree,
  names: GpuConfigMapNames,
  findings: Finding[],
): Promise<void> {
  for (const root of roots) {
    const clusters = root.objects.filter(isCapiCluster);
    if (clusters.length === 0) continue;
    const manifests = carriedToWorkloadClusters(root.objects);
    const clusterNames = clusters.map(c => `\`${c.metadata.name}\``).join(', ');
    const applied: BuiltObject[] = findConfigMaps(root.objects, [
      ...names.devicePlugin,
      ...names.migParted,
    ]);
    const generated = await generatedGpuConfigMapsOf(
      root,
      graph,
      source,
      names,
    );
    const finding = (configMap: unknown, rule: string, message: string) => {
      const name = String(getIn(configMap, 'metadata', 'name'));
      findings.push({
        file: root.file,
        object: `ConfigMap/${name}`,
        rule,
        message,
      });
    };
    const refOf = (configMap: unknown) =>
      `${getIn(configMap, 'metadata', 'namespace') ?? 'default'}/${getIn(configMap, 'metadata', 'name')}`;
    // What the files generate, else (a hand-written one) what the root builds.
    const configMaps = [
      ...generated,
      ...applied.filter(a => !deliveredCopy(generated, a)),
    ];
    for (const configMap of configMaps) {
      const copy = deliveredCopy(manifests, configMap);
      if (copy === undefined) {
        finding(
          configMap,
          'gpu-configs-not-delivered',
          `ConfigMap ${refOf(configMap)} belongs to the workload cluster (this root, applied to the Cluster API management cluster, declares Cluster ${clusterNames}): the device plugin and the MIG manager read it there, and no ClusterResourceSet selecting that Cluster carries it, so no GPU request's sharing or MIG config ever reaches the nodes. Fix: run the bootstrap again — on a management repository it writes the GPU folder's workload-cluster.yaml, a ClusterResourceSet that carries these ConfigMaps to the Cluster (label the Cluster first if it has no labels).`,
        );
      } else if (
        !deepEqual(getIn(copy, 'data') ?? {}, getIn(configMap, 'data') ?? {})
      ) {
        finding(
          configMap,
          'gpu-configs-delivery-stale',
          `the copy of ConfigMap ${refOf(configMap)} a ClusterResourceSet carries to Cluster ${clusterNames} differs from the one this root generates: the workload cluster's device plugin reads the old configs. Fix: make the carried copy the generated one (a request or release of the product rewrites the GPU folder's workload-cluster.yaml; run the bootstrap again if it is missing).`,
        );
      }
    }
    for (const configMap of applied) {
      finding(
        configMap,
        'gpu-configs-on-management-cluster',
        `ConfigMap ${refOf(configMap)} is applied to the Cluster API management cluster (this root declares Cluster ${clusterNames}), which has no GPU nodes and usually no \`${getIn(configMap, 'metadata', 'namespace') ?? 'default'}\` namespace of the GPU Operator: the apply fails there, or the object is dead weight. Fix: run the bootstrap again — on a management repository it marks what the GPU kustomization generates \`config.kubernetes.io/local-config\` (kustomize then leaves it out of the build) and carries it to the workload cluster with a ClusterResourceSet.`,
      );
    }
  }
}
