import { z } from 'zod';
import { GpuInputError } from '../errors';
import {
  isDns1123Label,
  isDns1123Subdomain,
  isImageReference,
  isOwnerRef,
  isRfc3339DateTime,
} from './formats';
import type { GpuRequest, SharingMode, WorkloadKind } from './types';
import { SHARING_MODES, WORKLOAD_KINDS } from './types';
import { zodIssuesToInputIssues } from './zodIssues';

export const GPU_REQUEST_API_VERSION = 'gpu.backstage.io/v1alpha1';

/** Upper bounds that stop absurd requests before the planner does any work. */
export const MAX_REPLICAS = 1000;
export const MAX_VRAM_GIB = 1024;
export const MAX_GPUS_PER_REPLICA = 16;
export const MAX_SLICES_PER_GPU = 64;

const dns1123Label = z
  .string()
  .min(1)
  .max(63)
  .refine(isDns1123Label, {
    message:
      'must be a DNS-1123 label: lowercase letters, digits and "-", starting and ending with a letter or digit',
    params: { rule: 'dns1123-label' },
  });

const dns1123Subdomain = z
  .string()
  .min(1)
  .max(253)
  .refine(isDns1123Subdomain, {
    message:
      'must be a DNS-1123 subdomain: lowercase letters, digits, "-" and ".", starting and ending with a letter or digit',
    params: { rule: 'dns1123-subdomain' },
  });

const modelId = z
  .string()
  .min(1)
  .max(63)
  .refine(isDns1123Label, {
    message: 'must be "auto" or a catalog model id such as "a100-80gb"',
    params: { rule: 'model-id' },
  });

const gpuSchema = z
  .strictObject({
    model: modelId,
    sharing: z.enum(
      SHARING_MODES as unknown as [SharingMode, ...SharingMode[]],
    ),
    replicas: z.number().int().min(1).max(MAX_REPLICAS),
    vramGiB: z.number().positive().max(MAX_VRAM_GIB),
    gpusPerReplica: z
      .number()
      .int()
      .min(1)
      .max(MAX_GPUS_PER_REPLICA)
      .default(1),
    slicesPerGpu: z.number().int().min(2).max(MAX_SLICES_PER_GPU).optional(),
  })
  .superRefine((gpu, ctx) => {
    if (gpu.gpusPerReplica > 1 && gpu.sharing !== 'exclusive') {
      ctx.addIssue({
        code: 'custom',
        path: ['gpusPerReplica'],
        message: `more than one GPU per replica needs sharing "exclusive" (not "${gpu.sharing}")`,
        params: { rule: 'exclusive-only' },
      });
    }
    if (gpu.slicesPerGpu !== undefined && gpu.sharing !== 'time-slicing') {
      ctx.addIssue({
        code: 'custom',
        path: ['slicesPerGpu'],
        message: `slicesPerGpu applies only to sharing "time-slicing" (not "${gpu.sharing}")`,
        params: { rule: 'time-slicing-only' },
      });
    }
  });

const workloadSchema = z
  .strictObject({
    image: z
      .string()
      .min(1)
      .refine(isImageReference, {
        message:
          'must be an OCI image reference such as "ghcr.io/org/app:1.2.3" or "repo/app@sha256:<digest>"',
        params: { rule: 'image-reference' },
      })
      .optional(),
    existing: z
      .strictObject({
        kind: z.enum(
          WORKLOAD_KINDS as unknown as [WorkloadKind, ...WorkloadKind[]],
        ),
        name: dns1123Subdomain,
        // Container names are DNS-1123 labels (Kubernetes API validation).
        container: dns1123Label.optional(),
      })
      .optional(),
  })
  .superRefine((workload, ctx) => {
    const count =
      (workload.image !== undefined ? 1 : 0) +
      (workload.existing !== undefined ? 1 : 0);
    if (count !== 1) {
      ctx.addIssue({
        code: 'custom',
        path: [],
        message:
          count === 0
            ? 'needs exactly one of "image" (a new workload) or "existing" (patch one); neither is set'
            : 'needs exactly one of "image" or "existing"; both are set',
        params: { rule: 'exactly-one-of' },
      });
    }
  });

const capacityTypesSchema = z
  .array(z.enum(['spot', 'on-demand']))
  .min(1)
  .max(2)
  .default(['on-demand'])
  .superRefine((types, ctx) => {
    if (new Set(types).size !== types.length) {
      ctx.addIssue({
        code: 'custom',
        path: [],
        message: 'must not list a capacity type twice',
        params: { rule: 'unique' },
      });
    }
  });

/**
 * The GpuRequest schema. Strict at every level: an unknown key is an error
 * (rule `unknown-key`), so a typo never silently becomes a default.
 */
export const gpuRequestSchema = z.strictObject({
  apiVersion: z
    .literal(GPU_REQUEST_API_VERSION)
    .default(GPU_REQUEST_API_VERSION),
  kind: z.literal('GpuRequest'),
  metadata: z.strictObject({
    name: dns1123Label,
    namespace: dns1123Label,
  }),
  spec: z.strictObject({
    owner: z
      .string()
      .min(1)
      .max(253)
      .refine(isOwnerRef, {
        message:
          'must be a Backstage entity ref of a group or user, e.g. "group:default/ml-platform"',
        params: { rule: 'entity-ref' },
      }),
    cluster: dns1123Label.optional(),
    gpu: gpuSchema,
    workload: workloadSchema,
    capacityTypes: capacityTypesSchema,
    expiresAt: z
      .string()
      .refine(isRfc3339DateTime, {
        message:
          'must be an RFC 3339 date-time with a time zone, e.g. "2026-12-24T18:00:00Z"',
        params: { rule: 'date-time' },
      })
      .optional(),
  }),
});

/**
 * Validates an already-parsed value (JSON body, scaffolder input) into a
 * GpuRequest with defaults applied. Throws GpuInputError naming each field.
 *
 * @public
 */
export function parseGpuRequest(value: unknown): GpuRequest {
  const result = gpuRequestSchema.safeParse(value, { reportInput: true });
  if (!result.success) {
    throw new GpuInputError(zodIssuesToInputIssues(result.error.issues));
  }
  return result.data as GpuRequest;
}
