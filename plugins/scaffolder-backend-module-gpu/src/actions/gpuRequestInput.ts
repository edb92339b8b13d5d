import { InputError } from '@backstage/errors';
import {
  describeIssue,
  fieldLabel,
  gpuRequestFromFormValues,
  isGpuInputError,
  parseGpuRequest,
  type GpuRequest,
  type GpuRequestFormValues,
  type InputIssue,
} from '@gpu-gitops/plugin-gpu-common';

/**
 * The flat inputs as the handler sees them (the scaffolder applies no
 * defaults; a template renders a missing parameter as '' or null).
 */
export type GpuRequestInput = GpuRequestFormValues;

/** The input name behind each GpuRequest field path, so errors name what the user typed. */
const INPUT_FOR_PATH: Array<[string, string]> = [
  ['metadata.name', 'name'],
  ['metadata.namespace', 'namespace'],
  ['spec.owner', 'owner'],
  ['spec.gpu.model', 'model'],
  ['spec.gpu.sharing', 'sharing'],
  ['spec.gpu.replicas', 'replicas'],
  ['spec.gpu.vramGiB', 'vramGiB'],
  ['spec.gpu.gpusPerReplica', 'gpusPerReplica'],
  ['spec.gpu.slicesPerGpu', 'slicesPerGpu'],
  ['spec.workload.image', 'image'],
  ['spec.workload.existing.kind', 'existingKind'],
  ['spec.workload.existing.name', 'existingName'],
  ['spec.workload.existing.container', 'existingContainer'],
  ['spec.cluster', 'cluster'],
  ['spec.workload', 'image / existingName'],
  ['spec.capacityTypes', 'capacityTypes'],
  ['spec.expiresAt', 'releaseAfterDays'],
  ['cluster', 'cluster'],
];

export function inputNameForPath(path: string): string | undefined {
  return INPUT_FOR_PATH.find(
    ([prefix]) => path === prefix || path.startsWith(`${prefix}.`),
  )?.[1];
}

/**
 * Builds the GpuRequest document from the flat inputs, applying the action's
 * defaults (gpu-common `gpuRequestFromFormValues`, as the form's preview
 * does), and validates it. Throws an InputError naming each bad input.
 */
export function gpuRequestFromInput(
  input: GpuRequestInput,
  now: Date = new Date(),
): GpuRequest {
  try {
    return parseGpuRequest(gpuRequestFromFormValues(input, now));
  } catch (error) {
    throw toInputError(error);
  }
}

/**
 * One issue in the form's words, then where it comes from for template
 * authors: `Replicas must be at least 1 (input "replicas", spec.gpu.replicas) [min]`.
 * A path that is no request field (a file of the repository) leads, as is.
 */
function describeIssueForTask(issue: InputIssue): string {
  if (!fieldLabel(issue.path)) {
    return `${issue.path ? `${issue.path}: ` : ''}${issue.message} [${issue.rule}]`;
  }
  const input = inputNameForPath(issue.path);
  const where = input ? `input "${input}", ${issue.path}` : issue.path;
  return `${describeIssue(issue)} (${where}) [${issue.rule}]`;
}

/**
 * Maps the domain's GpuInputError to Backstage's InputError (HTTP 400, shown
 * on the task page) with one line per issue; anything else passes through.
 */
export function toInputError(error: unknown): unknown {
  if (!isGpuInputError(error)) return error;
  return new InputError(
    `The GPU request was refused:\n${error.issues.map(describeIssueForTask).join('\n')}`,
  );
}
