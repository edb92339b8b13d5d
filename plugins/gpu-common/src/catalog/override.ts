import { z } from 'zod';
import { GpuInputError, type InputIssue } from '../errors';
import { parseMigProfileName } from '../mig/profileName';
import { zodIssuesToInputIssues } from '../request/zodIssues';
import { mpsMaxReplicasFor } from './mps';
import type { GpuCatalog, GpuModel, InstanceType } from './types';
import { resolveVSphereMachine, vSphereMachineSchema } from './vSphereMachine';

/**
 * Organisation-specific catalog changes, e.g. from app-config or a file in the
 * GitOps repository:
 * - `models`: add a model or replace a built-in one with the same `id`;
 * - `instanceTypes`: add a machine shape or replace one with the same `name`
 *   (on-prem nodes use provider `static`; the machines of a Cluster API
 *   cluster use its infrastructure's: `openstack` flavors, `vsphere` VM
 *   shapes with their `vSphere` block, `metal3` host classes);
 * - `prices`: set `onDemandUsdPerHour` by instance-type name (negotiated rate,
 *   internal chargeback, or 0 for owned hardware);
 * - `allowedModels`: keep only these model ids (and their instance types).
 * Objects are strict: a misspelt key is an error, not silently ignored.
 */

const positiveInt = z.number().int().positive();

/** DNS-1123 label: catalog ids end up in labels and resource names. */
const dns1123Label = z
  .string()
  .max(63)
  .regex(/^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/, {
    message: 'must be a DNS-1123 label (lower-case letters, digits, "-")',
  });

/** Instance-type / flavor names become `node.kubernetes.io/instance-type` label values. */
const labelValue = z
  .string()
  .max(63)
  .regex(/^[A-Za-z0-9]([-A-Za-z0-9_.]*[A-Za-z0-9])?$/, {
    message:
      'must be a valid label value (letters, digits, "-", "_", "." inside)',
  });

const migProfileSchema = z.strictObject({
  name: z.string().refine(n => parseMigProfileName(n) !== undefined, {
    message:
      'must be a MIG profile name like 1g.10gb, 1g.10gb+me or 1g.24gb-me',
    params: { rule: 'mig-profile-name' },
  }),
  memoryMiB: positiveInt,
  computeSlices: positiveInt,
  memorySlices: positiveInt,
  startSlots: z.array(z.number().int().nonnegative()).min(1),
  maxCount: positiveInt,
});

const migGeometrySchema = z
  .strictObject({
    memorySlices: positiveInt,
    computeSlices: positiveInt,
    pciDeviceIds: z.array(
      z.string().regex(/^0x[0-9A-Fa-f]{8}$/, {
        message: 'must be 0x<device><vendor>, e.g. 0x20B010DE',
      }),
    ),
    profiles: z.array(migProfileSchema).min(1),
  })
  .superRefine((geometry, ctx) => {
    geometry.profiles.forEach((profile, i) => {
      const parsed = parseMigProfileName(profile.name);
      if (parsed && parsed.gpuInstanceSlices !== profile.computeSlices) {
        ctx.addIssue({
          code: 'custom',
          path: ['profiles', i, 'computeSlices'],
          message: `must equal the ${parsed.gpuInstanceSlices}g of the profile name`,
          params: { rule: 'mig-geometry' },
        });
      }
      if (profile.computeSlices > geometry.computeSlices) {
        ctx.addIssue({
          code: 'custom',
          path: ['profiles', i, 'computeSlices'],
          message: `must be at most the GPU's ${geometry.computeSlices} compute slices`,
          params: { rule: 'mig-geometry' },
        });
      }
      profile.startSlots.forEach((start, j) => {
        if (start + profile.memorySlices > geometry.memorySlices) {
          ctx.addIssue({
            code: 'custom',
            path: ['profiles', i, 'startSlots', j],
            message: `start ${start} + ${profile.memorySlices} memory slices runs past the GPU's ${geometry.memorySlices} memory slices`,
            params: { rule: 'mig-geometry' },
          });
        }
      });
    });
  });

const gpuModelSchema = z
  .strictObject({
    id: dns1123Label,
    displayName: z.string().min(1),
    memoryMiB: positiveInt,
    architecture: z.enum([
      'volta',
      'turing',
      'ampere',
      'ada-lovelace',
      'hopper',
      'blackwell',
    ]),
    computeCapability: z.string().regex(/^\d+\.\d+$/, {
      message: 'must be <major>.<minor>, e.g. 8.0',
    }),
    /** Defaults to the device plugin's limit for the compute capability. */
    mpsMaxReplicas: positiveInt.optional(),
    mig: migGeometrySchema.optional(),
  })
  .superRefine((model, ctx) => {
    if (!/^\d+\.\d+$/.test(model.computeCapability)) return;
    const limit = mpsMaxReplicasFor(model.computeCapability);
    if (model.mpsMaxReplicas !== undefined && model.mpsMaxReplicas > limit) {
      ctx.addIssue({
        code: 'custom',
        path: ['mpsMaxReplicas'],
        message: `the NVIDIA device plugin allows at most ${limit} MPS clients at compute capability ${model.computeCapability}`,
        params: { rule: 'max' },
      });
    }
  });

const instanceTypeSchema = z
  .strictObject({
    name: labelValue,
    family: z.string().min(1),
    provider: z.enum([
      'aws',
      'azure',
      'static',
      'openstack',
      'vsphere',
      'metal3',
      'gcp',
    ]),
    gpuModel: z.string().min(1),
    gpusPerNode: positiveInt,
    /** Defaults to the model's memory. */
    gpuMemoryMiB: positiveInt.optional(),
    vcpu: positiveInt,
    memoryMiB: positiveInt,
    onDemandUsdPerHour: z.number().nonnegative(),
    karpenterGpuName: z.string().min(1).optional(),
    vSphere: vSphereMachineSchema.optional(),
  })
  // A vSphere VM's disk and GPU attachment have no default; elsewhere the
  // block would be silently ignored.
  .superRefine((type, ctx) => {
    if (type.provider === 'vsphere' && !type.vSphere) {
      ctx.addIssue({
        code: 'custom',
        path: ['vSphere'],
        message:
          'is required for provider "vsphere": diskGiB, and pciDeviceId or vgpuProfile',
        params: { rule: 'vsphere-machine' },
      });
    }
    if (type.vSphere && type.provider !== 'vsphere') {
      ctx.addIssue({
        code: 'custom',
        path: ['vSphere'],
        message: `applies only to provider "vsphere", not "${type.provider}"`,
        params: { rule: 'vsphere-machine' },
      });
    }
  });

/** @public */
export const catalogOverrideSchema = z.strictObject({
  models: z.array(gpuModelSchema).optional(),
  instanceTypes: z.array(instanceTypeSchema).optional(),
  prices: z.record(z.string(), z.number().nonnegative()).optional(),
  allowedModels: z.array(z.string()).min(1).optional(),
});

export type CatalogOverride = z.input<typeof catalogOverrideSchema>;

function duplicates(values: string[]): Map<string, number> {
  const seen = new Set<string>();
  const result = new Map<string, number>();
  values.forEach((v, i) => {
    if (seen.has(v) && !result.has(v)) result.set(v, i);
    seen.add(v);
  });
  return result;
}

/**
 * A new catalog: `base` with `override` applied (models and instance types
 * replaced by id / name or appended, prices set, then restricted to
 * `allowedModels`). `base` is not modified. Throws `GpuInputError` naming the
 * path (`instanceTypes.2.gpuModel`) and rule of every problem.
 *
 * @public
 */
export function mergeCatalog(base: GpuCatalog, override: unknown): GpuCatalog {
  const parsed = catalogOverrideSchema.safeParse(override, {
    reportInput: true,
  });
  if (!parsed.success) {
    throw new GpuInputError(zodIssuesToInputIssues(parsed.error.issues));
  }
  const o = parsed.data;
  const issues: InputIssue[] = duplicateIdIssues(o);
  const models = new Map<string, GpuModel>(
    base.models.map(m => [m.id, structuredCloneModel(m)]),
  );
  for (const m of o.models ?? []) {
    const { mpsMaxReplicas, mig, ...rest } = m;
    models.set(m.id, {
      ...rest,
      mpsMaxReplicas: mpsMaxReplicas ?? mpsMaxReplicasFor(m.computeCapability),
      ...(mig ? { mig } : {}),
    });
  }
  const instanceTypes = mergeInstanceTypes(base, o, models, issues);
  for (const [name, price] of Object.entries(o.prices ?? {})) {
    const type = instanceTypes.get(name);
    if (!type) {
      issues.push({
        path: `prices.${name}`,
        rule: 'unknown-instance-type',
        message: `no instance type or flavor named ${name}`,
      });
      continue;
    }
    type.onDemandUsdPerHour = price;
  }
  (o.allowedModels ?? []).forEach((id, i) => {
    if (!models.has(id)) {
      issues.push({
        path: `allowedModels.${i}`,
        rule: 'unknown-model',
        message: `GPU model ${id} is not in the catalog; known: ${[...models.keys()].join(', ')}`,
      });
    }
  });
  if (issues.length > 0) throw new GpuInputError(issues);

  const allowed = o.allowedModels ? new Set(o.allowedModels) : undefined;
  const keep = (id: string) => !allowed || allowed.has(id);
  return {
    models: [...models.values()].filter(m => keep(m.id)),
    instanceTypes: [...instanceTypes.values()].filter(t => keep(t.gpuModel)),
  };
}

type ParsedOverride = z.output<typeof catalogOverrideSchema>;

/** A model id or instance type named twice in the override: which one would win? */
function duplicateIdIssues(o: ParsedOverride): InputIssue[] {
  return [
    ...[...duplicates((o.models ?? []).map(m => m.id))].map(([id, i]) => ({
      path: `models.${i}.id`,
      rule: 'duplicate',
      message: `model id ${id} appears more than once`,
    })),
    ...[...duplicates((o.instanceTypes ?? []).map(t => t.name))].map(
      ([name, i]) => ({
        path: `instanceTypes.${i}.name`,
        rule: 'duplicate',
        message: `instance type ${name} appears more than once`,
      }),
    ),
  ];
}

/**
 * The built-in instance types with the override's added or replaced: each
 * of a model the catalog knows, its GPU memory the model's unless given, a
 * vSphere machine resolved from its GPU attachment.
 */
function mergeInstanceTypes(
  base: GpuCatalog,
  o: ParsedOverride,
  models: Map<string, GpuModel>,
  issues: InputIssue[],
): Map<string, InstanceType> {
  const instanceTypes = new Map<string, InstanceType>(
    base.instanceTypes.map(t => [
      t.name,
      { ...t, ...(t.vSphere ? { vSphere: { ...t.vSphere } } : {}) },
    ]),
  );
  (o.instanceTypes ?? []).forEach((t, i) => {
    const model = models.get(t.gpuModel);
    if (!model) {
      issues.push({
        path: `instanceTypes.${i}.gpuModel`,
        rule: 'unknown-model',
        message: `GPU model ${t.gpuModel} is neither built in nor defined under models`,
      });
      return;
    }
    const { gpuMemoryMiB, karpenterGpuName, vSphere, ...rest } = t;
    const resolved = vSphere
      ? resolveVSphereMachine(
          { vcpu: t.vcpu, vSphere },
          model,
          `instanceTypes.${i}`,
        )
      : undefined;
    if (resolved && 'issues' in resolved) {
      issues.push(...resolved.issues);
      return;
    }
    instanceTypes.set(t.name, {
      ...rest,
      gpuMemoryMiB: gpuMemoryMiB ?? model.memoryMiB,
      ...(karpenterGpuName ? { karpenterGpuName } : {}),
      ...(resolved ? { vSphere: resolved.machine } : {}),
    });
  });
  return instanceTypes;
}

/** Deep copy so callers mutating the merged catalog never touch the built-in data. */
function structuredCloneModel(model: GpuModel): GpuModel {
  return {
    ...model,
    ...(model.mig
      ? {
          mig: {
            ...model.mig,
            pciDeviceIds: [...model.mig.pciDeviceIds],
            profiles: model.mig.profiles.map(p => ({
              ...p,
              startSlots: [...p.startSlots],
            })),
          },
        }
      : {}),
  };
}
