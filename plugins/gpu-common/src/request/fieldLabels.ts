/**
 * The request form's words for each GpuRequest field, in one place: the
 * form's own labels, the gpu backend's `/plan` refusals and the scaffolder
 * task log all name a field the way the form shows it ("GPU memory per
 * replica", not `spec.gpu.vramGiB`). The machine-readable `path` and `rule`
 * stay beside the words wherever an issue travels.
 */
import type { InputIssue } from '../errors';

/** Form label of each request field path (longest prefix wins). */
export const REQUEST_FIELD_LABELS: Readonly<Record<string, string>> = {
  'metadata.name': 'Name',
  'metadata.namespace': 'Namespace',
  'spec.owner': 'Owner',
  'spec.cluster': 'Cluster',
  'spec.gpu.model': 'GPU model',
  'spec.gpu.sharing': 'Sharing mode',
  'spec.gpu.replicas': 'Replicas',
  'spec.gpu.vramGiB': 'GPU memory per replica',
  'spec.gpu.gpusPerReplica': 'GPUs per replica',
  'spec.gpu.slicesPerGpu': 'Replicas per GPU (time-slicing)',
  'spec.gpu': 'GPU request',
  'spec.workload.image': 'Container image',
  'spec.workload.existing.kind': 'Kind',
  'spec.workload.existing.name': 'Workload name',
  'spec.workload.existing.container': 'Container',
  'spec.workload': 'Workload',
  'spec.capacityTypes': 'Capacity types',
  'spec.expiresAt': 'Release after',
  // The cluster profile of the request (gpu.clusters), not a request field.
  cluster: 'Cluster',
};

/**
 *  The form label of a field path (`spec.gpu.vramGiB` → `GPU memory per replica`); undefined for the whole request.
 *
 * @public
 */
export function fieldLabel(path: string): string | undefined {
  let best: string | undefined;
  for (const prefix of Object.keys(REQUEST_FIELD_LABELS)) {
    const matches = path === prefix || path.startsWith(`${prefix}.`);
    if (matches && (!best || prefix.length > best.length)) best = prefix;
  }
  return best === undefined ? undefined : REQUEST_FIELD_LABELS[best];
}

/** Schema messages are predicates ("is required", "must be at least 1") that read on from the field's name. */
const PREDICATE = /^(is|must|needs|has)\b/;

/**
 * One issue in the form's words: `Replicas is required`,
 * `Replicas must be at least 1`, `GPU model: cluster aks cannot launch t4 GPUs: …`.
 *
 * @public
 */
export function describeIssue(issue: InputIssue): string {
  const label = fieldLabel(issue.path);
  if (!label) return issue.message;
  return PREDICATE.test(issue.message)
    ? `${label} ${issue.message}`
    : `${label}: ${issue.message}`;
}
