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
import { getIn, isPlainObject } from './yamlObjects';

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
 * Clusters among `objects`: named `<cluster>-<entry>` (the controller adds a
 * random suffix), the entry's replicas and metadata, referencing its worker
 * class's templates. An entry whose class is not among `objects` is left
 * out: what its nodes are cannot be told.
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
    const entries = getIn(
      cluster,
      'spec',
      'topology',
      'workers',
      'machineDeployments',
    );
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
      name: `${clusterName}-${getIn(entry, 'name')}`,
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

/** `objects` and the MachineDeployments their topology Clusters make. */
export function withTopologyMachineDeployments(objects: unknown[]): unknown[] {
  const made = topologyMachineDeployments(objects);
  return made.length > 0 ? [...objects, ...made] : objects;
}
