/**
 * Adopting a Cluster API cluster's own GPU workers: a MachineDeployment
 * written by hand whose machine template names a catalog GPU machine (a
 * CAPZ or CAPA GPU flavor's `md-0`). It becomes a pool of the product's as
 * a Karpenter NodePool does (`adoptPool.ts`: the annotations saying what
 * it is, its ledger and its floor), with one more need: the product's pods
 * select `<labelDomain>/pool` (gpu-common `providers/poolNodeLabel.ts`),
 * which Cluster API nodes carry only from kubelet registration. Cluster API
 * copies to a Node no Machine label outside its own three prefixes
 * (cluster-api v1.14.0 `docs/book/src/reference/api/metadata-propagation.md`)
 * and applies a bootstrap template only when a machine joins, never to a
 * running node; a changed template reference rolls the MachineDeployment
 * out. So the team's KubeadmConfigTemplate stays as it is, a copy of it
 * with the pool label added to `node-labels` (content-named, as every
 * template of the product: gpu-common `templateName`) is appended beside
 * it, and the MachineDeployment refers to the copy: Cluster API replaces
 * its nodes with ones that carry the label. The MachineDeployment's record
 * (`<labelDomain>/replaced`, the format of `changes/replacedFields.ts`)
 * names the reference it had, so an un-adoption puts it back.
 */
import { parse, stringify } from 'yaml';
import {
  findInstanceType,
  gpuAnnotationKeys,
  templateName,
  type GpuCatalog,
  type PoolState,
} from '@gpu-gitops/plugin-gpu-common';
import type { YamlFile } from '../changes/yamlFile';
import {
  isGpuMachineDeployment,
  MACHINE_DEPLOYMENT,
  machineDeploymentAsNodePool,
  machineTypeOf,
  nodeRegistrationLabels,
  templatesOf,
} from '../repo/machineDeploymentPools';
import {
  handWrittenMachineDeploymentPool,
  type PoolConfigs,
} from '../repo/parsePools';
import {
  asKubernetesObject,
  getIn,
  isPlainObject,
  type ParsedDocument,
  type PlainObject,
} from '../repo/yamlObjects';
import { annotate } from './adoptPool';
import type { ImportFinding } from './convert/findings';

/** Where a MachineDeployment names its bootstrap template. */
export const BOOTSTRAP_REF_PATH = [
  'spec',
  'template',
  'spec',
  'bootstrap',
  'configRef',
  'name',
];

/** A team's GPU MachineDeployment the import can adopt. */
export interface MachineDeploymentAdoption {
  path: string;
  name: string;
  /** The MachineDeployment read as the NodePool it stands for (sharing is read from it). */
  asNodePool: PlainObject;
  /** The pool it is: model from its machine, its GPUs as its floor. */
  pool: PoolState;
  /** Its replicas, its machine and the GPUs each has: the report's counts. */
  replicas: number;
  machine: string;
  gpusPerNode: number;
  /** The team's KubeadmConfigTemplate, as written. */
  bootstrap: PlainObject;
  /**
   * The topology Cluster whose `spec.topology.workers.machineDeployments`
   * entry it is (`adoptTopologyEntry.ts`); undefined for a MachineDeployment
   * written in the repository.
   */
  topologyCluster?: string;
}

/** A note on a GPU MachineDeployment left as it is, with why. */
function leftAsItIs(path: string, name: string, why: string): ImportFinding {
  return {
    kind: 'note',
    path,
    object: `MachineDeployment "${name}"`,
    message: `GPU workers written by hand, not adopted: ${why}. Its workloads get no request record and new requests open pools of their own beside it; \`validate\` still judges the workloads that land on it`,
  };
}

/**
 * The team's GPU MachineDeployments among the cluster folder's documents,
 * each adoptable or left with a note saying why.
 */
export function handWrittenGpuMachineDeployments(
  files: Iterable<{ documents: ParsedDocument[] }>,
  configs: PoolConfigs,
  catalog: GpuCatalog,
  labelDomain: string,
): { adoptions: MachineDeploymentAdoption[]; findings: ImportFinding[] } {
  const documents = [...files].flatMap(f => f.documents);
  const values = documents.map(d => d.value);
  const adoptions: MachineDeploymentAdoption[] = [];
  const findings: ImportFinding[] = [];
  for (const d of documents) {
    const deployment = asKubernetesObject(d.value);
    if (deployment?.kind !== MACHINE_DEPLOYMENT) continue;
    if (isGpuMachineDeployment(deployment)) continue;
    const { bootstrap, infrastructure } = templatesOf(deployment, values);
    const machine = machineTypeOf(infrastructure);
    const type = machine ? findInstanceType(catalog, machine) : undefined;
    if (!machine || !type) continue;
    const name = deployment.metadata.name;
    const machines = `${machine}: ${type.gpusPerNode} × ${type.gpuModel} per node`;
    const replicas = getIn(deployment, 'spec', 'replicas');
    const why = whyNotAdoptable(bootstrap, replicas, labelDomain, name);
    if (why) {
      findings.push(leftAsItIs(d.path, name, `${machines}; ${why}`));
      continue;
    }
    const asNodePool = machineDeploymentAsNodePool(deployment, values);
    const pool = handWrittenMachineDeploymentPool(
      asNodePool,
      d.path,
      configs,
      catalog,
    );
    if (!pool) continue;
    const gpus = (replicas as number) * type.gpusPerNode;
    adoptions.push({
      path: d.path,
      name,
      asNodePool,
      pool: { ...pool, limitFloor: gpus },
      replicas: replicas as number,
      machine,
      gpusPerNode: type.gpusPerNode,
      bootstrap: bootstrap as PlainObject,
    });
  }
  return { adoptions, findings };
}

/** Why the product could not manage the MachineDeployment, in the team's words; undefined when it can. */
export function whyNotAdoptable(
  bootstrap: unknown,
  replicas: unknown,
  labelDomain: string,
  name: string,
): string | undefined {
  if (getIn(bootstrap, 'kind') !== 'KubeadmConfigTemplate') {
    return 'its KubeadmConfigTemplate is not in the cluster’s folder, so the product cannot give its nodes the pool label its pods select';
  }
  if (typeof replicas !== 'number' || !Number.isInteger(replicas)) {
    return 'it has no `spec.replicas` (an autoscaler sizes it), so the product cannot keep its GPUs as a floor';
  }
  const label = nodeRegistrationLabels(bootstrap)[`${labelDomain}/pool`];
  if (label !== undefined && label !== name) {
    return `its nodes already register with ${labelDomain}/pool=${label}, another pool's label`;
  }
  return undefined;
}

/** `node-labels` with `key=value` added (kubelet reads `k=v` pairs, comma separated). */
function withLabel(current: unknown, key: string, value: string): string {
  const pairs = typeof current === 'string' && current !== '' ? [current] : [];
  return [...pairs, `${key}=${value}`].join(',');
}

/**
 * `template` (a KubeadmConfigTemplate) named `name`, its nodes registering
 * with `key=value` too: v1beta2 `kubeletExtraArgs` is a list of
 * `{name, value}`, v1beta1 a map (CAPI v1.14.0 bootstrap/kubeadm API).
 */
export function withNodeLabel(
  template: PlainObject,
  name: string,
  [key, value]: [string, string],
): PlainObject {
  const copy = JSON.parse(JSON.stringify(template)) as PlainObject;
  copy.metadata = { ...(copy.metadata as PlainObject), name };
  const spec = ((copy.spec as PlainObject).template as PlainObject)
    .spec as PlainObject;
  const join = (spec.joinConfiguration ??= {}) as PlainObject;
  const registration = (join.nodeRegistration ??= {}) as PlainObject;
  const args = registration.kubeletExtraArgs;
  if (
    Array.isArray(args) ||
    String(copy.apiVersion ?? '').endsWith('/v1beta2')
  ) {
    const list = (Array.isArray(args) ? args : []) as PlainObject[];
    const entry = list.find(a => a.name === 'node-labels');
    if (entry) entry.value = withLabel(entry.value, key, value);
    else list.push({ name: 'node-labels', value: `${key}=${value}` });
    registration.kubeletExtraArgs = list;
  } else {
    const map = (isPlainObject(args) ? args : {}) as PlainObject;
    map['node-labels'] = withLabel(map['node-labels'], key, value);
    registration.kubeletExtraArgs = map;
  }
  return copy;
}

/** The copy of the team's bootstrap template the adopted pool's nodes join with. */
export function poolLabelTemplate(
  adoption: MachineDeploymentAdoption,
  labelDomain: string,
): PlainObject {
  const label: [string, string] = [`${labelDomain}/pool`, adoption.name];
  const labelled = withNodeLabel(adoption.bootstrap, '', label);
  return withNodeLabel(
    adoption.bootstrap,
    templateName(adoption.name, labelled.spec),
    label,
  );
}

/** The record of the reference the adoption replaced (`changes/replacedFields.ts`'s format). */
export function adoptionRecord(before: string, after: string): string {
  return stringify({
    [BOOTSTRAP_REF_PATH.join('.')]: { before, request: after },
  });
}

/** The bootstrap reference an adoption replaced, read from its record; undefined when it replaced none. */
export function adoptedReference(
  record: unknown,
): { before: string; request: string } | undefined {
  if (typeof record !== 'string') return undefined;
  let parsed: unknown;
  try {
    parsed = parse(record);
  } catch {
    return undefined; // not the adoption's record
  }
  const entry = getIn(parsed, BOOTSTRAP_REF_PATH.join('.'));
  const before = getIn(entry, 'before');
  const request = getIn(entry, 'request');
  return typeof before === 'string' && typeof request === 'string'
    ? { before, request }
    : undefined;
}

/**
 * The MachineDeployment as the adoption leaves it: `annotations` it did not
 * carry, its record, and its bootstrap reference on `template`.
 */
export function adoptedDeployment(
  deployment: PlainObject,
  annotations: Record<string, string>,
  template: string,
  labelDomain: string,
): PlainObject {
  const copy = JSON.parse(JSON.stringify(deployment)) as PlainObject;
  const metadata = copy.metadata as PlainObject;
  const current = (metadata.annotations ?? {}) as Record<string, string>;
  const before = String(getIn(copy, ...BOOTSTRAP_REF_PATH));
  metadata.annotations = {
    ...annotations,
    ...current,
    [gpuAnnotationKeys(labelDomain).replaced]: adoptionRecord(before, template),
  };
  const ref = getIn(copy, ...BOOTSTRAP_REF_PATH.slice(0, -1)) as PlainObject;
  ref.name = template;
  return copy;
}

/**
 * Adopts the MachineDeployment in its own file: annotations added, its
 * bootstrap reference and the record changed in place (every other line
 * as the team wrote it), the labelled copy of its template appended.
 */
export function adoptInFile(
  file: YamlFile,
  adoption: MachineDeploymentAdoption,
  annotations: Record<string, string>,
  labelDomain: string,
): PlainObject {
  const template = poolLabelTemplate(adoption, labelDomain);
  const name = String((template.metadata as PlainObject).name);
  const doc = file.findObject(MACHINE_DEPLOYMENT, adoption.name)!;
  const before = String(doc.getIn(BOOTSTRAP_REF_PATH));
  annotate(doc, annotations);
  doc.setIn(
    ['metadata', 'annotations', gpuAnnotationKeys(labelDomain).replaced],
    adoptionRecord(before, name),
  );
  doc.setIn(BOOTSTRAP_REF_PATH, name);
  file.append(template);
  file.modified = true;
  return template;
}

/** What the report says of an adopted MachineDeployment: its GPUs, with their unit. */
export function adoptionCounts(adoption: MachineDeploymentAdoption): string[] {
  const gpus = adoption.replicas * adoption.gpusPerNode;
  return [
    `replicas: ${adoption.replicas} nodes × ${adoption.gpusPerNode} ${adoption.pool.gpuModel} GPU each = ${gpus} GPUs (its floor, in GPUs)`,
  ];
}

/** The note on what the adoption changes on the cluster (a rollout). */
export function adoptionNote(
  adoption: MachineDeploymentAdoption,
  template: string,
  labelDomain: string,
): ImportFinding {
  const bootstrap = String(getIn(adoption.bootstrap, 'metadata', 'name'));
  return {
    kind: 'note',
    path: adoption.path,
    object: `MachineDeployment "${adoption.name}"`,
    message: `adopted: its nodes get the pool label ${labelDomain}/pool=${adoption.name} from KubeadmConfigTemplate "${template}" (a copy of "${bootstrap}", which stays as it is, with that label added to \`node-labels\`). A bootstrap template applies only when a machine joins, so Cluster API replaces its ${adoption.replicas} nodes (${adoption.machine}) one by one (its rollout strategy) to give them the label new requests' pods select; the record \`${labelDomain}/replaced\` names the reference it had`,
  };
}
