/**
 * Adopting a GPU worker of a Cluster API cluster's managed topology: an
 * entry of the Cluster's `spec.topology.workers.machineDeployments` whose
 * worker class's machine is a catalog GPU machine. The topology controller
 * makes its MachineDeployment (`repo/topologyMachineDeployments.ts`) and
 * copies the entry's `metadata` onto it and its Machines (Cluster API v1.11
 * `api/core/v1beta2/cluster_types.go` `MachineDeploymentTopology.Metadata`:
 * "the metadata applied to the MachineDeployment and the machines of the
 * MachineDeployment"), so the product's pool annotations (ledger, model,
 * sharing, floor) go on the entry, in place, as on an adopted NodePool.
 *
 * Its nodes must carry the product's `<labelDomain>/pool=<entry>`, which its
 * pods select. Unlike a written MachineDeployment's, the entry's bootstrap
 * template is its worker class's, shared by every entry of that class and
 * owned by the ClusterClass: the product does not relabel it, and a label
 * in the entry's `metadata.labels` reaches the Machines only, never the
 * Nodes (`repo/machineDeploymentPools.ts` `syncedToNode`). So the entry is
 * adopted only when its class's bootstrap template already registers its
 * nodes with that label; otherwise the note says what to add.
 */
import type { Document } from 'yaml';
import {
  findInstanceType,
  type GpuCatalog,
} from '@gpu-gitops/plugin-gpu-common';
import {
  machineDeploymentAsNodePool,
  machineTypeOf,
  nodeRegistrationLabels,
  templatesOf,
} from '../repo/machineDeploymentPools';
import {
  handWrittenMachineDeploymentPool,
  type PoolConfigs,
} from '../repo/parsePools';
import type { PoolObject } from '../repo/poolObjectAsNodePool';
import { hasPoolAnnotations } from '../repo/productPools';
import {
  TOPOLOGY_ENTRIES_PATH,
  topologyMachineDeployments,
} from '../repo/topologyMachineDeployments';
import {
  getIn,
  isPlainObject,
  type ParsedDocument,
  type PlainObject,
} from '../repo/yamlObjects';
import type { YamlFile } from '../changes/yamlFile';
import {
  whyNotAdoptable,
  type MachineDeploymentAdoption,
} from './adoptMachineDeployment';
import type { ImportFinding } from './convert/findings';

/** The index of worker entry `name` in a topology Cluster (-1: none). */
function entryIndex(cluster: unknown, name: string): number {
  const entries = getIn(cluster, ...TOPOLOGY_ENTRIES_PATH);
  return Array.isArray(entries)
    ? entries.findIndex(e => getIn(e, 'name') === name)
    : -1;
}

/** Why the entry's nodes cannot be the product's pool, in the team's words; undefined when they can. */
function whyNotAdoptableEntry(
  made: unknown,
  bootstrap: unknown,
  labelDomain: string,
): string | undefined {
  const name = String(getIn(made, 'metadata', 'name'));
  const why = whyNotAdoptable(
    bootstrap,
    getIn(made, 'spec', 'replicas'),
    labelDomain,
    name,
  );
  if (why) return why;
  const label = `${labelDomain}/pool`;
  if (nodeRegistrationLabels(bootstrap)[label] === name) return undefined;
  const inEntry = getIn(made, 'spec', 'template', 'metadata', 'labels', label);
  return [
    `its nodes do not carry ${label}=${name}, the label the product's pods select, and the product does not change the worker class's bootstrap template (${getIn(bootstrap, 'metadata', 'name')}: every entry of the class joins with it)`,
    inEntry === undefined
      ? ''
      : ` (the entry's \`metadata.labels\` ${label} reaches its Machines, not its Nodes: Cluster API copies to Nodes only node-role.kubernetes.io/, node-restriction.kubernetes.io and node.cluster.x-k8s.io labels)`,
    `. Add \`${label}=${name}\` to the \`node-labels\` of the class's bootstrap template (a worker class of its own for GPU workers) and import again`,
  ].join('');
}

/**
 * The GPU workers of the topology Clusters among `documents`: each
 * adoptable entry, and a note on each other one (adopted already entries
 * are pools of the product's, read as such).
 */
export function topologyGpuWorkers(
  documents: ParsedDocument[],
  configs: PoolConfigs,
  catalog: GpuCatalog,
  labelDomain: string,
): { adoptions: MachineDeploymentAdoption[]; findings: ImportFinding[] } {
  const values = documents.map(d => d.value);
  const others = values.filter(v => getIn(v, 'kind') !== 'Cluster');
  const adoptions: MachineDeploymentAdoption[] = [];
  const findings: ImportFinding[] = [];
  for (const d of documents) {
    const cluster = String(getIn(d.value, 'metadata', 'name'));
    for (const made of topologyMachineDeployments([d.value, ...others])) {
      if (hasPoolAnnotations(made)) continue;
      const { bootstrap, infrastructure } = templatesOf(made, values);
      const machine = machineTypeOf(infrastructure);
      const type = machine ? findInstanceType(catalog, machine) : undefined;
      if (!machine || !type) continue;
      const name = String(getIn(made, 'metadata', 'name'));
      const machines = `${machine}: ${type.gpusPerNode} × ${type.gpuModel} per node`;
      const why = whyNotAdoptableEntry(made, bootstrap, labelDomain);
      const asNodePool = machineDeploymentAsNodePool(
        made as PoolObject,
        values,
      );
      const pool = why
        ? undefined
        : handWrittenMachineDeploymentPool(
            asNodePool,
            d.path,
            configs,
            catalog,
          );
      if (!pool) {
        findings.push({
          kind: 'note',
          path: d.path,
          object: `Cluster "${cluster}"`,
          message: `GPU workers of its managed topology, not adopted: the entry \`${name}\` of \`spec.topology.workers.machineDeployments\` (${machines}); ${why}. Its workloads get no request record and a new request's pool is refused on this cluster with the worker class and topology entry to add; \`validate\` still judges the workloads that land on it`,
        });
        continue;
      }
      const replicas = getIn(made, 'spec', 'replicas') as number;
      adoptions.push({
        path: d.path,
        name,
        asNodePool,
        pool: { ...pool, limitFloor: replicas * type.gpusPerNode },
        replicas,
        machine,
        gpusPerNode: type.gpusPerNode,
        bootstrap: bootstrap as PlainObject,
        topologyCluster: cluster,
      });
    }
  }
  return { adoptions, findings };
}

/** Adds to `doc`'s entry `name` the annotations it does not carry yet. */
function annotateEntry(
  doc: Document,
  name: string,
  annotations: Record<string, string>,
): void {
  const index = entryIndex(doc.toJS(), name);
  const at = [...TOPOLOGY_ENTRIES_PATH, index, 'metadata', 'annotations'];
  for (const [key, value] of Object.entries(annotations)) {
    if (doc.getIn([...at, key]) === undefined) doc.setIn([...at, key], value);
  }
}

/** Adopts the entry in its Cluster's file: its annotations added in place, every other line as the team wrote it. */
export function adoptEntryInFile(
  file: YamlFile,
  adoption: MachineDeploymentAdoption,
  annotations: Record<string, string>,
): void {
  annotateEntry(
    file.findObject('Cluster', adoption.topologyCluster!)!,
    adoption.name,
    annotations,
  );
  file.modified = true;
}

/** The Cluster as kustomize builds it once the entry is adopted (what the import's verification expects). */
export function adoptedCluster(
  built: PlainObject,
  name: string,
  annotations: Record<string, string>,
): PlainObject {
  const copy = JSON.parse(JSON.stringify(built)) as PlainObject;
  const entry = (getIn(copy, ...TOPOLOGY_ENTRIES_PATH) as PlainObject[])[
    entryIndex(copy, name)
  ];
  const metadata = (entry.metadata ??= {}) as PlainObject;
  const current = isPlainObject(metadata.annotations)
    ? metadata.annotations
    : {};
  metadata.annotations = { ...annotations, ...current };
  return copy;
}

/** The note on what the adoption changes on the cluster: nothing on its nodes. */
export function entryAdoptionNote(
  adoption: MachineDeploymentAdoption,
  labelDomain: string,
): ImportFinding {
  return {
    kind: 'note',
    path: adoption.path,
    object: `Cluster "${adoption.topologyCluster}"`,
    message: `adopted the entry \`${adoption.name}\` of \`spec.topology.workers.machineDeployments\`: its nodes (${adoption.replicas} × ${adoption.machine}) already register with ${labelDomain}/pool=${adoption.name}; the product's annotations go on the entry (the topology controller copies them to its MachineDeployment and Machines; no node is replaced), and requests change its ledger and replicas there`,
  };
}
