/**
 * A Cluster API cluster with a managed topology (ClusterClass) declares no
 * MachineDeployment: its workers are `spec.topology.workers.machineDeployments`
 * entries, each of a worker class of its ClusterClass, and the topology
 * controller makes the MachineDeployment of each from the class's bootstrap
 * and infrastructure templates. The readers take each entry as the
 * MachineDeployment it becomes, so its nodes (a GPU flavor's too) are seen
 * as a written one's.
 *
 * Fields as Cluster API v1.11 defines them (`api/core/v1beta2/cluster_types.go`
 * `Topology`, `clusterclass_types.go` `MachineDeploymentClass`): v1beta2
 * `spec.topology.classRef.name` and a class's `bootstrap.templateRef` /
 * `infrastructure.templateRef`; v1beta1 `spec.topology.class` and
 * `template.bootstrap.ref` / `template.infrastructure.ref`.
 */
import { getIn, isPlainObject, type ParsedDocument } from './yamlObjects';

/** Where a topology Cluster lists its workers. */
export const TOPOLOGY_ENTRIES_PATH = [
  'spec',
  'topology',
  'workers',
  'machineDeployments',
];

/** The ClusterClass a topology Cluster names, as either API version says it (undefined: no managed topology). */
export function topologyClassName(cluster: unknown): unknown {
  return (
    getIn(cluster, 'spec', 'topology', 'classRef', 'name') ??
    getIn(cluster, 'spec', 'topology', 'class')
  );
}

/** The worker class `name` of `clusterClass`, with its two template references. */
function workerClass(clusterClass: unknown, name: unknown) {
  const classes = getIn(clusterClass, 'spec', 'workers', 'machineDeployments');
  const found = (Array.isArray(classes) ? classes : []).find(
    c => getIn(c, 'class') === name,
  );
  if (!found) return undefined;
  return {
    bootstrap:
      getIn(found, 'bootstrap', 'templateRef') ??
      getIn(found, 'template', 'bootstrap', 'ref'),
    infrastructure:
      getIn(found, 'infrastructure', 'templateRef') ??
      getIn(found, 'template', 'infrastructure', 'ref'),
  };
}

/** A template reference as a MachineDeployment holds it (kind and name; the namespace is the Cluster's). */
const reference = (ref: unknown) => ({
  kind: getIn(ref, 'kind'),
  name: getIn(ref, 'name'),
});

/**
 * The MachineDeployments the topology controller makes of the topology
 * Clusters among `objects`, each named as its entry: the controller names
 * its MachineDeployment `<cluster>-<entry>-<random suffix>`, a name no
 * repository holds, so the pool is the entry the team wrote (the name its
 * nodes' pool label and a request's ledger give). Each has the entry's
 * replicas and metadata and refers to its worker class's templates. An
 * entry whose class is not among `objects` is left out: what its nodes are
 * cannot be told.
 */
export function topologyMachineDeployments(objects: unknown[]): unknown[] {
  return objects.flatMap(cluster => {
    if (getIn(cluster, 'kind') !== 'Cluster') return [];
    const className = topologyClassName(cluster);
    if (typeof className !== 'string') return [];
    const clusterClass = objects.find(
      o =>
        getIn(o, 'kind') === 'ClusterClass' &&
        getIn(o, 'metadata', 'name') === className,
    );
    const entries = getIn(cluster, ...TOPOLOGY_ENTRIES_PATH);
    return (Array.isArray(entries) ? entries : []).flatMap(entry => {
      const templates = workerClass(clusterClass, getIn(entry, 'class'));
      if (!templates) return [];
      return [topologyMachineDeployment(cluster, entry, templates)];
    });
  });
}

function topologyMachineDeployment(
  cluster: unknown,
  entry: unknown,
  templates: { bootstrap: unknown; infrastructure: unknown },
) {
  const clusterName = getIn(cluster, 'metadata', 'name');
  const metadata = getIn(entry, 'metadata');
  const namespace = getIn(cluster, 'metadata', 'namespace');
  return {
    apiVersion: 'cluster.x-k8s.io/v1beta2',
    kind: 'MachineDeployment',
    metadata: {
      name: getIn(entry, 'name'),
      ...(typeof namespace === 'string' ? { namespace } : {}),
      ...(isPlainObject(getIn(metadata, 'annotations'))
        ? { annotations: getIn(metadata, 'annotations') }
        : {}),
    },
    spec: {
      clusterName,
      ...(getIn(entry, 'replicas') !== undefined
        ? { replicas: getIn(entry, 'replicas') }
        : {}),
      template: {
        metadata: { labels: getIn(metadata, 'labels') ?? {} },
        spec: {
          clusterName,
          bootstrap: { configRef: reference(templates.bootstrap) },
          infrastructureRef: reference(templates.infrastructure),
        },
      },
    },
  };
}

/**
 * `documents` and the MachineDeployments their topology Clusters make, each
 * a document of its Cluster's file (where its entry is written), so the pool
 * readers read a topology worker as the MachineDeployment it becomes.
 *
 * @public
 */
export function withTopologyDocuments(
  documents: ParsedDocument[],
): ParsedDocument[] {
  const others = documents
    .map(d => d.value)
    .filter(v => getIn(v, 'kind') !== 'Cluster');
  const made = documents.flatMap(d =>
    topologyMachineDeployments([d.value, ...others]).map(value => ({
      path: d.path,
      index: d.index,
      value,
    })),
  );
  return made.length > 0 ? [...documents, ...made] : documents;
}

/**
 * True when two builds of a Cluster differ at most in its topology's worker
 * entries named `names` (a pool's ledger and size are written on its entry,
 * `changes/topologyEntryDocument.ts`), none added or removed: what a
 * request or release of those pools may change of a Cluster.
 */
export function changesOnlyTopologyEntries(
  before: unknown,
  after: unknown,
  names: readonly string[],
): boolean {
  const blanked = (cluster: unknown) => {
    const copy = JSON.parse(JSON.stringify(cluster ?? null));
    const entries = getIn(copy, ...TOPOLOGY_ENTRIES_PATH);
    if (!Array.isArray(entries)) return copy;
    entries.forEach((entry, i) => {
      const name = getIn(entry, 'name');
      if (typeof name === 'string' && names.includes(name)) {
        entries[i] = { name };
      }
    });
    return copy;
  };
  return JSON.stringify(blanked(before)) === JSON.stringify(blanked(after));
}
