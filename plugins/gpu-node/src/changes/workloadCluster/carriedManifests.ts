/**
 * What a Cluster API management root's build hands to its workload
 * clusters: the manifests of every ClusterResourceSet that selects a
 * `cluster.x-k8s.io` Cluster the same build declares (its ConfigMaps' and
 * Secrets' data, as the ClusterResourceSet controller applies them:
 * kubernetes-sigs/cluster-api v1.14.0 `exp/addons`). `validate` reads the
 * GPU ConfigMaps of such a root there, since the workload cluster's device
 * plugin reads those copies, not anything the management cluster applies.
 */
import { parseAllDocuments } from 'yaml';
import type { BuiltObject } from '../../kustomize';
import { getIn } from '../../repo/yamlObjects';

export const isCapiCluster = (o: BuiltObject) =>
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

/** Every manifest the root's ClusterResourceSets carry to the Clusters it declares (none when it declares none). */
export function carriedToWorkloadClusters(objects: BuiltObject[]): unknown[] {
  const clusters = objects.filter(isCapiCluster);
  if (clusters.length === 0) return [];
  return objects
    .filter(o => o.kind === 'ClusterResourceSet')
    .filter(set => clusters.some(c => selects(set, c)))
    .flatMap(set => carried(set, objects));
}

/** The carried manifests that are Kubernetes objects, shaped as built ones. */
export function carriedObjects(objects: BuiltObject[]): BuiltObject[] {
  return carriedToWorkloadClusters(objects).filter(
    (m): m is BuiltObject =>
      typeof getIn(m, 'kind') === 'string' &&
      typeof getIn(m, 'metadata', 'name') === 'string',
  );
}
