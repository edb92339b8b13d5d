import type { z as zod } from 'zod/v3';
import {
  SHARING_MODES,
  WORKLOAD_KINDS,
  type SharingMode,
  type WorkloadKind,
} from '@gpu-gitops/plugin-gpu-common';

/**
 * The GpuRequest as flat, template-friendly action inputs (shared by every
 * action that plans). The JSON schema only checks types: the GpuRequest
 * schema in gpu-common stays the one authority on values, so the form, the
 * CLI and the actions reject the same things with the same messages.
 * The scaffolder module's actions and the gpu backend's agent actions take
 * the same fields. (The callbacks' parameter is not named `z`: the packed
 * declaration file imports zod as `z`, and `z: typeof z` would refer to
 * itself.)
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
