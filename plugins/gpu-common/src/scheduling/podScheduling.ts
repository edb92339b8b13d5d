/**
 * What a pod template asks of a node: its `nodeSelector`, its required node
 * affinity, its tolerations and the GPU resources one pod takes.
 */
import type { NodeSelectorRequirement } from '../manifests/nodeSelectorRequirement';
import type { PodToleration } from '../manifests/tolerations';

/** @public */
export interface PodScheduling {
  nodeSelector: Record<string, string>;
  /**
   * `requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms`: a
   * node fits when it matches one term, a term when it matches every
   * expression. Empty: no affinity.
   */
  affinityTerms: NodeSelectorRequirement[][];
  tolerations: PodToleration[];
  /** GPU resources one pod asks for (its containers' `limits`, added up). */
  gpuResources: Record<string, number>;
}

function record(value: unknown): Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : {};
}

function listOf(value: unknown): Record<string, unknown>[] {
  return Array.isArray(value) ? value.map(record) : [];
}

/**
 * An NVIDIA extended resource (device plugin `nvidia.com/…`, DRA `*.nvidia.com`).
 *
 * @public
 */
export function isNvidiaResource(name: string): boolean {
  return name.startsWith('nvidia.com/') || name.endsWith('.nvidia.com');
}

function count(value: unknown): number | undefined {
  const n = typeof value === 'number' ? value : Number(String(value));
  return Number.isInteger(n) && n >= 0 ? n : undefined;
}

function expressionsOf(term: unknown): NodeSelectorRequirement[] {
  return listOf(record(term).matchExpressions)
    .filter(e => typeof e.key === 'string' && typeof e.operator === 'string')
    .map(e => ({
      key: String(e.key),
      operator: e.operator as NodeSelectorRequirement['operator'],
      ...(Array.isArray(e.values) ? { values: e.values.map(String) } : {}),
    }));
}

/**
 * What the pods of a pod spec ask of a node. Init containers run one after
 * another, so a pod needs the most any one of them asks; the sidecars and
 * app containers run together and add up (Kubernetes "Resource sharing
 * within containers"); the larger of the two is what the node must hold.
 *
 * @public
 */
export function podSchedulingOf(podSpec: unknown): PodScheduling {
  const spec = record(podSpec);
  const nodeSelector = Object.fromEntries(
    Object.entries(record(spec.nodeSelector)).map(([k, v]) => [k, String(v)]),
  );
  const required = record(
    record(record(spec.affinity).nodeAffinity)
      .requiredDuringSchedulingIgnoredDuringExecution,
  );
  const affinityTerms = listOf(required.nodeSelectorTerms).map(expressionsOf);
  const together: Record<string, number> = {};
  const oneAtATime: Record<string, number> = {};
  const limitsOf = (c: Record<string, unknown>) =>
    Object.entries(record(record(c.resources).limits)).filter(([name]) =>
      isNvidiaResource(name),
    );
  for (const c of listOf(spec.containers)) {
    for (const [name, raw] of limitsOf(c)) {
      together[name] = (together[name] ?? 0) + (count(raw) ?? 0);
    }
  }
  for (const c of listOf(spec.initContainers)) {
    const sidecar = c.restartPolicy === 'Always';
    for (const [name, raw] of limitsOf(c)) {
      const n = count(raw) ?? 0;
      if (sidecar) together[name] = (together[name] ?? 0) + n;
      else oneAtATime[name] = Math.max(oneAtATime[name] ?? 0, n);
    }
  }
  const gpuResources = { ...together };
  for (const [name, n] of Object.entries(oneAtATime)) {
    gpuResources[name] = Math.max(gpuResources[name] ?? 0, n);
  }
  return {
    nodeSelector,
    affinityTerms,
    tolerations: listOf(spec.tolerations) as PodToleration[],
    gpuResources,
  };
}
