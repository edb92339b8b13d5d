/**
 * A Cluster API management root (it builds a `cluster.x-k8s.io` Cluster)
 * that builds the GPU ConfigMaps applies them to the management cluster,
 * while the device plugin and the MIG manager read them in the workload
 * cluster: each must also reach a workload Cluster of that root through a
 * ClusterResourceSet selecting it (what the bootstrap writes:
 * `changes/workloadCluster/gpuConfigsDelivery.ts`), and the copy it carries
 * must be the one the root generates.
 */
import { parseAllDocuments } from 'yaml';
import type { BuiltObject } from '../kustomize';
import { deepEqual } from '../changes/canonical';
import { getIn } from '../repo/yamlObjects';
import type { BuiltRoot } from './builtRoots';
import type { Finding } from './findings';
import { findConfigMaps, type GpuConfigMapNames } from './gpuConfigMaps';

const isCapiCluster = (o: BuiltObject) =>
  o.kind === 'Cluster' && String(o.apiVersion).startsWith('cluster.x-k8s.io/');

/** A ClusterResourceSet's `clusterSelector` on a Cluster's labels (an empty selector selects none). */
function selects(resourceSet: BuiltObject, cluster: BuiltObject): boolean {
  const selector = getIn(resourceSet, 'spec', 'clusterSelector') ?? {};
  const labels = (cluster.metadata.labels ?? {}) as Record<string, string>;
  const matchLabels = Object.entries(
    (getIn(selector, 'matchLabels') ?? {}) as Record<string, string>,
  );
  const expressions = (getIn(selector, 'matchExpressions') ?? []) as {
    key: string;
    operator: string;
    values?: string[];
  }[];
  if (matchLabels.length === 0 && expressions.length === 0) return false;
  return (
    matchLabels.every(([k, v]) => labels[k] === v) &&
    expressions.every(e => {
      const has = e.key in labels;
      const inValues = has && (e.values ?? []).includes(labels[e.key]);
      if (e.operator === 'In') return inValues;
      if (e.operator === 'NotIn') return !inValues;
      if (e.operator === 'Exists') return has;
      return !has;
    })
  );
}

/** The manifests a ClusterResourceSet carries (its ConfigMaps' and Secrets' data). */
function carried(resourceSet: BuiltObject, objects: BuiltObject[]): unknown[] {
  const refs = (getIn(resourceSet, 'spec', 'resources') ?? []) as {
    kind: string;
    name: string;
  }[];
  return refs.flatMap(ref => {
    const holder = objects.find(
      o =>
        o.kind === ref.kind &&
        o.metadata.name === ref.name &&
        o.metadata.namespace === resourceSet.metadata.namespace,
    );
    const data = (getIn(holder, 'data') ?? {}) as Record<string, string>;
    return Object.values(data).flatMap(text => {
      const decoded =
        ref.kind === 'Secret' ? Buffer.from(text, 'base64').toString() : text;
      return parseAllDocuments(decoded).map(d => d.toJS());
    });
  });
}

/** The ConfigMap of that name and namespace among delivered manifests (no namespace: `default`). */
function deliveredCopy(manifests: unknown[], configMap: BuiltObject) {
  return manifests.find(
    m =>
      getIn(m, 'kind') === 'ConfigMap' &&
      getIn(m, 'metadata', 'name') === configMap.metadata.name &&
      (getIn(m, 'metadata', 'namespace') ?? 'default') ===
        (configMap.metadata.namespace ?? 'default'),
  );
}

export function checkGpuConfigsDelivery(
  roots: BuiltRoot[],
  names: GpuConfigMapNames,
  findings: Finding[],
): void {
  for (const root of roots) {
    const clusters = root.objects.filter(isCapiCluster);
    if (clusters.length === 0) continue;
    const manifests = root.objects
      .filter(o => o.kind === 'ClusterResourceSet')
      .filter(set => clusters.some(c => selects(set, c)))
      .flatMap(set => carried(set, root.objects));
    const clusterNames = clusters.map(c => `\`${c.metadata.name}\``).join(', ');
    const configMaps = findConfigMaps(root.objects, [
      ...names.devicePlugin,
      ...names.migParted,
    ]);
    for (const configMap of configMaps) {
      const copy = deliveredCopy(manifests, configMap);
      const ref = `${configMap.metadata.namespace ?? 'default'}/${configMap.metadata.name}`;
      if (copy === undefined) {
        findings.push({
          file: root.file,
          object: `ConfigMap/${configMap.metadata.name}`,
          rule: 'gpu-configs-not-delivered',
          message: `ConfigMap ${ref} is applied to the Cluster API management cluster (this root declares Cluster ${clusterNames}), but the device plugin and the MIG manager read it in the workload cluster, and no ClusterResourceSet selecting that Cluster carries it: no GPU request's sharing or MIG config ever reaches the nodes. Fix: run the bootstrap again — on a management repository it writes the GPU folder's workload-cluster.yaml, a ClusterResourceSet that carries these ConfigMaps to the Cluster (label the Cluster first if it has no labels).`,
        });
      } else if (!deepEqual(getIn(copy, 'data') ?? {}, configMap.data ?? {})) {
        findings.push({
          file: root.file,
          object: `ConfigMap/${configMap.metadata.name}`,
          rule: 'gpu-configs-delivery-stale',
          message: `the copy of ConfigMap ${ref} a ClusterResourceSet carries to Cluster ${clusterNames} differs from the one this root generates: the workload cluster's device plugin reads the old configs. Fix: make the carried copy the generated one (a request or release of the product rewrites the GPU folder's workload-cluster.yaml; run the bootstrap again if it is missing).`,
        });
      }
    }
  }
}
