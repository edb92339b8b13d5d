import type { z as zod } from 'zod/v3';
import { InputError } from '@backstage/errors';
import {
  describeIssue,
  fieldLabel,
  gpuRequestFromFormValues,
  isGpuInputError,
  parseGpuRequest,
  SHARING_MODES,
  WORKLOAD_KINDS,
  type GpuRequest,
  type GpuRequestFormValues,
  type SharingMode,
  type WorkloadKind,
  type InputIssue,
} from '@gpu-gitops/plugin-gpu-common';

/**
 * The GpuRequest as flat, template-friendly action inputs (shared by every
 * action that plans). The JSON schema only checks types: the GpuRequest
 * schema in gpu-common stays the one authority on values, so the form, the
 * CLI and the actions reject the same things with the same messages.
 * The gpu backend's agent actions take the same fields. (The callbacks'
 * parameter is not named `z`: the packed declaration file imports zod as
 * `z`, and `z: typeof z` would refer to itself.)
 *
 * @public
 */
export const gpuRequestInputProperties = {
  name: (schemas: typeof zod) =>
    schemas
      .string()
      .describe('Component and workload name (DNS-1123 label), e.g. chat-api'),
  namespace: (schemas: typeof zod) =>
    schemas.string().describe('Kubernetes namespace (DNS-1123 label)'),
  owner: (schemas: typeof zod) =>
    schemas
      .string()
      .describe('Owner entity ref, e.g. group:default/ml-platform'),
  model: (schemas: typeof zod) =>
    schemas
      .string()
      .optional()
      .describe(
        'GPU model id from the catalog, or "auto" (default) for the cheapest that fits',
      ),
  sharing: (schemas: typeof zod) =>
    schemas
      .enum(SHARING_MODES as unknown as [SharingMode, ...SharingMode[]])
      .optional()
      .describe('exclusive (default) | time-slicing | mps | mig | dra'),
  replicas: (schemas: typeof zod) =>
    schemas.number().int().optional().describe('Replicas (default 1)'),
  vramGiB: (schemas: typeof zod) =>
    schemas.number().describe('GPU memory each replica needs, GiB'),
  gpusPerReplica: (schemas: typeof zod) =>
    schemas
      .number()
      .int()
      .optional()
      .describe('Whole GPUs per replica, exclusive mode only (default 1)'),
  slicesPerGpu: (schemas: typeof zod) =>
    schemas
      .number()
      .int()
      .optional()
      .describe(
        'Time-slicing only: replicas per GPU (default: computed from VRAM)',
      ),
  image: (schemas: typeof zod) =>
    schemas
      .string()
      .optional()
      .describe(
        'Container image of a new workload (or use existingKind + existingName)',
      ),
  existingKind: (schemas: typeof zod) =>
    schemas
      .enum(WORKLOAD_KINDS as unknown as [WorkloadKind, ...WorkloadKind[]])
      .optional()
      .describe(
        'Kind of an existing workload to give GPUs: Deployment (default), StatefulSet, Job or CronJob',
      ),
  existingName: (schemas: typeof zod) =>
    schemas
      .string()
      .optional()
      .describe('Name of an existing workload to patch'),
  existingContainer: (schemas: typeof zod) =>
    schemas
      .string()
      .optional()
      .describe(
        'The container of the existing workload that gets the GPU (required when it has several)',
      ),
  capacityTypes: (schemas: typeof zod) =>
    schemas
      .array(schemas.enum(['spot', 'on-demand']))
      .optional()
      .describe('Karpenter capacity types (default [on-demand])'),
  cluster: (schemas: typeof zod) =>
    schemas
      .string()
      .optional()
      .describe('Target cluster profile name (default: gpu.clusters.default)'),
  releaseAfterDays: (schemas: typeof zod) =>
    schemas
      .union([schemas.number(), schemas.literal(''), schemas.null()])
      .optional()
      .describe(
        'For experiments: the gpu backend opens the release pull request this many days (1 to 365) after the request is sent',
      ),
};

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
