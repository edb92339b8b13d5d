/**
 * GPU workloads from the documents of the workload folders: every GPU
 * workload of a kind a request writes or patches (Deployment, StatefulSet,
 * Job, CronJob: gpu-common `WORKLOAD_KINDS`) or a patch of one, device-plugin
 * or DRA, merged by `<namespace>/<name>`.
 */
import type {
  PodScheduling,
  WorkloadKind,
  WorkloadState,
} from '@gpu-gitops/plugin-gpu-common';
import {
  compareStrings,
  isWorkloadKind,
  podSchedulingOf,
  poolSelectedBy,
  strategicMerge,
  WELL_KNOWN_KEYS,
  workloadShape,
  runSteps,
} from '@gpu-gitops/plugin-gpu-common';
import type { CompiledRepoLayout } from '../layout/compileRepoLayout';
import { runStepsInTurns } from './eventLoopTurns';
import { isGpuResourceName } from './poolLabels';
import {
  asKubernetesObject,
  getIn,
  isPlainObject,
  parseCount,
  ParsedDocument,
  stringRecord,
} from './yamlObjects';

interface WorkloadSighting {
  path: string;
  kind: WorkloadKind;
  namespace?: string;
  name: string;
  replicas?: number;
  gpu?: { resourceName: string; perReplica: number };
  pool?: string;
  kubernetesId?: string;
  request?: string;
  podSpec: unknown;
}

/**
 * The GPU workloads among `docs`, with the pool their node selector names
 * and what their pods ask of a node (`scheduling`): where they land among
 * the pools decides their pool (gpu-common `placedWorkload`, which knows
 * the pools).
 * `layout` gives a manifest without a namespace the one of its folder;
 * `requestAnnotation` (`<labelDomain>/request`) names the GPU request that
 * wrote a workload's GPU part.
 *
 * @public
 */
export function parseWorkloads(
  docs: ParsedDocument[],
  layout: CompiledRepoLayout,
  requestAnnotation?: string,
): WorkloadState[] {
  return runSteps(workloadSteps(docs, layout, requestAnnotation));
}

/**
 * `parseWorkloads` in slices, with a turn of the event loop between them
 * (`turn`, from `eventLoopTurns`): a scale cluster's 100k workload
 * documents are seconds of work, and the backend answers meanwhile.
 */
export async function parseWorkloadsInTurns(
  docs: ParsedDocument[],
  layout: CompiledRepoLayout,
  requestAnnotation: string | undefined,
  turn: () => Promise<void>,
): Promise<WorkloadState[]> {
  return runStepsInTurns(workloadSteps(docs, layout, requestAnnotation), turn);
}

/** The work of `parseWorkloads`, stopping after each document and each workload. */
function* workloadSteps(
  docs: ParsedDocument[],
  layout: CompiledRepoLayout,
  requestAnnotation: string | undefined,
): Generator<void, WorkloadState[]> {
  const claimTemplates = readClaimTemplates(docs, layout);
  const sightings: WorkloadSighting[] = [];
  for (const doc of docs) {
    const sighting = workloadSighting(
      doc,
      layout,
      claimTemplates,
      requestAnnotation,
    );
    if (sighting) sightings.push(sighting);
    yield;
  }
  const workloads: WorkloadState[] = [];
  const byId = yield* sightingsById(sightings, layout);
  for (const [id, group] of [...byId].sort(([a], [b]) =>
    compareStrings(a, b),
  )) {
    const workload = gpuWorkload(id, group);
    if (workload) workloads.push(workload);
    yield;
  }
  return workloads;
}

/** A document as a workload sighting, with the GPUs its containers or DRA claims ask for, if it is a workload. */
function workloadSighting(
  doc: ParsedDocument,
  layout: CompiledRepoLayout,
  claimTemplates: Map<string, [string, number][]>,
  requestAnnotation: string | undefined,
): WorkloadSighting | undefined {
  const obj = asKubernetesObject(doc.value);
  if (!obj || !isWorkloadKind(obj.kind)) return undefined;
  const shape = workloadShape(obj.kind);
  const podTemplate = getIn(obj, ...shape.podTemplate);
  const podSpec = getIn(podTemplate, 'spec');
  const totals = containerGpuLimits(podSpec);
  // DRA workloads request devices of a DeviceClass through claim templates.
  const claims = getIn(podSpec, 'resourceClaims');
  if (totals.size === 0 && Array.isArray(claims) && claims.length > 0) {
    const namespace =
      typeof obj.metadata.namespace === 'string'
        ? obj.metadata.namespace
        : namespaceFromPath(doc.path, layout);
    addClaimedDevices(totals, claims, namespace, claimTemplates);
  }
  const labels = {
    ...stringRecord(getIn(podTemplate, 'metadata', 'labels')),
    ...stringRecord(getIn(obj, 'metadata', 'labels')),
  };
  const [first] = [...totals.entries()];
  return {
    path: doc.path,
    kind: obj.kind,
    namespace:
      typeof obj.metadata.namespace === 'string'
        ? obj.metadata.namespace
        : undefined,
    name: obj.metadata.name,
    replicas: parseCount(getIn(obj, ...shape.replicas)),
    gpu: first ? { resourceName: first[0], perReplica: first[1] } : undefined,
    pool: poolSelectedBy(stringRecord(getIn(podSpec, 'nodeSelector'))),
    kubernetesId: labels[WELL_KNOWN_KEYS.backstageKubernetesId],
    request: requestAnnotation
      ? stringRecord(getIn(podTemplate, 'metadata', 'annotations'))[
          requestAnnotation
        ]
      : undefined,
    podSpec,
  };
}

/** A patch and its base describe one workload: sightings by `<namespace>/<name>`, each with its namespace. */
function* sightingsById(
  sightings: WorkloadSighting[],
  layout: CompiledRepoLayout,
): Generator<void, Map<string, WorkloadSighting[]>> {
  const byId = new Map<string, WorkloadSighting[]>();
  for (const s of sightings) {
    const namespace = s.namespace ?? namespaceFromPath(s.path, layout);
    const id = `${namespace}/${s.name}`;
    const group = byId.get(id);
    if (group) group.push({ ...s, namespace });
    else byId.set(id, [{ ...s, namespace }]);
    yield;
  }
  return byId;
}

/**
 * The workload the sightings of one id describe, when one of them asks for
 * GPUs: that sighting's GPUs, its replicas (else another's, else its kind's
 * default), the first pool, Backstage id and request any of them names.
 */
function gpuWorkload(
  id: string,
  group: WorkloadSighting[],
): WorkloadState | undefined {
  const gpu = group.find(s => s.gpu);
  if (!gpu?.gpu) return undefined;
  const replicas =
    gpu.replicas ??
    group.find(s => s.replicas !== undefined)?.replicas ??
    workloadShape(gpu.kind).defaultReplicas;
  const poolName = gpu.pool ?? group.find(s => s.pool)?.pool;
  const kubernetesId = group.find(s => s.kubernetesId)?.kubernetesId;
  const request = group.find(s => s.request)?.request;
  const workload: WorkloadState = {
    id,
    namespace: gpu.namespace!,
    name: gpu.name,
    path: gpu.path,
    resourceName: gpu.gpu.resourceName,
    replicas,
    perReplica: gpu.gpu.perReplica,
    scheduling: withClaimedDevices(
      podSchedulingOf(deployedPodSpec(group)),
      gpu.gpu,
    ),
  };
  if (poolName) workload.pool = poolName;
  if (kubernetesId) workload.kubernetesId = kubernetesId;
  if (request) workload.request = request;
  return workload;
}

/** A DRA claim whose template is not in the repository: its device class is not known. */
const UNKNOWN_CLAIM = 'resource.k8s.io/claims';

/** GPU resources the pod's containers limit, summed per resource name. */
function containerGpuLimits(podSpec: unknown): Map<string, number> {
  const containers = [
    ...((getIn(podSpec, 'containers') as unknown[]) ?? []),
  ].filter(isPlainObject);
  const totals = new Map<string, number>();
  for (const c of containers) {
    for (const [key, value] of Object.entries(
      stringRecord(getIn(c, 'resources', 'limits')),
    )) {
      if (!isGpuResourceName(key)) continue;
      totals.set(key, (totals.get(key) ?? 0) + (parseCount(value) ?? 0));
    }
  }
  return totals;
}

/**
 * Adds to `totals` the devices of each DRA claim, by the DeviceClass of its
 * template in `namespace` (an unknown device class when the repository does
 * not hold the template).
 */
function addClaimedDevices(
  totals: Map<string, number>,
  claims: unknown[],
  namespace: string,
  claimTemplates: Map<string, [string, number][]>,
): void {
  for (const claim of claims) {
    const template = getIn(claim, 'resourceClaimTemplateName');
    const found =
      typeof template === 'string'
        ? claimTemplates.get(`${namespace}/${template}`)
        : undefined;
    for (const [deviceClass, count] of found ?? [[UNKNOWN_CLAIM, 1] as const]) {
      totals.set(deviceClass, (totals.get(deviceClass) ?? 0) + count);
    }
  }
}

/**
 * What a DRA pod asks of a node: the devices of its DeviceClass (no
 * container limit names them), so that it lands only on pools serving that
 * class, as a device plugin pod lands only where its resource is advertised.
 */
function withClaimedDevices(
  scheduling: PodScheduling,
  gpu: { resourceName: string; perReplica: number },
): PodScheduling {
  if (
    Object.keys(scheduling.gpuResources).length > 0 ||
    gpu.resourceName === UNKNOWN_CLAIM
  ) {
    return scheduling;
  }
  return {
    ...scheduling,
    gpuResources: { [gpu.resourceName]: gpu.perReplica },
  };
}

/**
 * A patch names its containers without their `image` (a base must give one).
 */
function isPatch(podSpec: unknown): boolean {
  const containers = getIn(podSpec, 'containers');
  return (
    Array.isArray(containers) &&
    containers.some(c => getIn(c, 'image') === undefined)
  );
}

/**
 * The pod spec a workload's sightings deploy: its bases, then its patches
 * merged over them as kustomize applies them (strategic merge: a `null`
 * selector entry deletes it, tolerations and affinity terms replace). A
 * patch this applier refuses leaves the last sighting's own spec.
 */
function deployedPodSpec(group: readonly WorkloadSighting[]): unknown {
  const ordered = [
    ...group.filter(s => !isPatch(s.podSpec)),
    ...group.filter(s => isPatch(s.podSpec)),
  ];
  try {
    return ordered
      .map(s => s.podSpec)
      .reduce<unknown>(
        (base, patch) => strategicMerge(base ?? {}, patch ?? {}),
        undefined,
      );
  } catch {
    return ordered[ordered.length - 1].podSpec;
  }
}

/**
 * ResourceClaimTemplates by `<namespace>/<name>`: the DeviceClass and count of
 * each device request (`exactly` in resource.k8s.io/v1, flat in v1beta1).
 */
function readClaimTemplates(
  docs: ParsedDocument[],
  layout: CompiledRepoLayout,
): Map<string, [string, number][]> {
  const out = new Map<string, [string, number][]>();
  for (const doc of docs) {
    const obj = asKubernetesObject(doc.value);
    if (!obj || obj.kind !== 'ResourceClaimTemplate') continue;
    const namespace =
      typeof obj.metadata.namespace === 'string'
        ? obj.metadata.namespace
        : namespaceFromPath(doc.path, layout);
    const requests = getIn(obj, 'spec', 'spec', 'devices', 'requests');
    const devices: [string, number][] = [];
    for (const request of Array.isArray(requests) ? requests : []) {
      const exact = getIn(request, 'exactly') ?? request;
      const deviceClass = getIn(exact, 'deviceClassName');
      if (typeof deviceClass !== 'string') continue;
      devices.push([deviceClass, parseCount(getIn(exact, 'count')) ?? 1]);
    }
    out.set(`${namespace}/${obj.metadata.name}`, devices);
  }
  return out;
}

/** The namespace a workload file's folder stands for in the layout (`apps/<namespace>/...`). */
function namespaceFromPath(path: string, layout: CompiledRepoLayout): string {
  return layout.workloadNamespace(path) ?? 'default';
}
