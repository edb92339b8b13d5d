import { NVML_PRODUCT_NAMES } from '../catalog/data/nvmlProductNames';
import { DRA_MIG_DEVICE_CLASS } from '../planner/sharingDraMig';
import type { Plan } from '../planner/types';
import { MANAGED_BY, WELL_KNOWN_KEYS } from './metadataKeys';
import type { KubernetesObject } from './types';

/** DeviceClass installed by the NVIDIA DRA driver chart for full GPUs. */
export const DRA_GPU_DEVICE_CLASS = 'gpu.nvidia.com';
/** Driver name in opaque configs. */
export const DRA_DRIVER = 'gpu.nvidia.com';
/** Name of the single device request in our claims. */
export const DRA_REQUEST_NAME = 'gpu';

/**
 * The ResourceClaimTemplate a DRA request's pods claim from, named after the request.
 *
 * @public
 */
export function resourceClaimTemplateName(workloadName: string): string {
  return `${workloadName}-gpu`;
}

/**
 * The GpuConfig sharing block for the plan, if the plan shares the GPU among
 * the containers of a pod: MPS when a pinned-memory limit is planned,
 * none otherwise. It needs the driver's `MPSSupport` feature gate.
 */
function gpuSharingConfig(plan: Plan): Record<string, unknown> | undefined {
  const { mpsPinnedMemoryMiB, slicesPerGpu } = plan.sharing;
  if (mpsPinnedMemoryMiB !== undefined) {
    const config: Record<string, unknown> = {
      defaultPinnedDeviceMemoryLimit: `${mpsPinnedMemoryMiB}Mi`,
    };
    if (slicesPerGpu && slicesPerGpu > 1) {
      config.defaultActiveThreadPercentage = Math.floor(100 / slicesPerGpu);
    }
    return { strategy: 'MPS', mpsConfig: config };
  }
  return undefined;
}

/**
 * Shares a claim takes when the plan shares GPUs through the driver's
 * integer consumable shares (`sharing.slicesPerGpu` shares per GPU): the
 * `shares` capacity the driver publishes (dra-driver-nvidia-gpu@95932046
 * `demo/specs/consumable-shares/README.md`). Written even when it is the
 * default of 1, so the claim fails to allocate rather than take a whole GPU
 * on a node whose driver does not share. The driver time-slices the claims
 * itself: no GpuConfig (its TimeSlicing needs the TimeSlicingSettings gate
 * and shares only inside one claim).
 */
function sharesRequest(plan: Plan): Record<string, unknown> | undefined {
  const { mpsPinnedMemoryMiB, slicesPerGpu } = plan.sharing;
  if (mpsPinnedMemoryMiB !== undefined || !slicesPerGpu || slicesPerGpu < 2) {
    return undefined;
  }
  return { requests: { shares: String(plan.resourcePerReplica) } };
}

/**
 * The CEL selecting the plan's GPU model by the product name NVML reports,
 * an attribute Karpenter evaluates before launch, so it launches only
 * instance types of that model; undefined for a model without known names.
 */
function productNameSelector(plan: Plan): string | undefined {
  const names = NVML_PRODUCT_NAMES[plan.pool.gpuModel];
  if (!names) return undefined;
  const attribute = `device.attributes['${DRA_DRIVER}'].productName`;
  if (names.length === 1) return `${attribute} == '${names[0]}'`;
  return `${attribute} in [${names.map(n => `'${n}'`).join(', ')}]`;
}

/**
 * One MIG instance of the plan's profile, of the plan's model (its parent's
 * `productName`), from DeviceClass `mig.nvidia.com` (`planner/sharingDraMig.ts`;
 * the profile never splits devices into consumable shares beside it,
 * `cluster/draSettings.ts`).
 */
function migInstanceRequest(
  plan: Plan,
  profile: string,
): Record<string, unknown> {
  return {
    deviceClassName: DRA_MIG_DEVICE_CLASS,
    count: 1,
    selectors: [
      productNameSelector(plan),
      `device.attributes['${DRA_DRIVER}'].profile == '${profile}'`,
    ]
      .filter((e): e is string => e !== undefined)
      .map(expression => ({ cel: { expression } })),
  };
}

/** One GPU of at least the requested memory, or the plan's shares of one. */
function gpuRequest(plan: Plan): Record<string, unknown> {
  const shares = sharesRequest(plan);
  // The GPU's whole memory: a share does not shrink the device's capacity.
  const memorySelector = `device.capacity['${DRA_DRIVER}'].memory.compareTo(quantity('${plan.perReplica.vramGiB}Gi')) >= 0`;
  return {
    deviceClassName: DRA_GPU_DEVICE_CLASS,
    count: 1,
    selectors: [productNameSelector(plan), memorySelector]
      .filter((e): e is string => e !== undefined)
      .map(expression => ({ cel: { expression } })),
    ...(shares ? { capacity: shares } : {}),
  };
}

/**
 * ResourceClaimTemplate `resource.k8s.io/v1` (Kubernetes ≥ 1.34): each pod
 * gets its own claim for one GPU of at least the requested memory (the
 * driver's `memory` capacity, bytes, a quantity), or one MIG instance of
 * the planned profile.
 */
export function buildResourceClaimTemplate(plan: Plan): KubernetesObject {
  const { name, namespace } = plan.request.metadata;
  const sharing = gpuSharingConfig(plan);
  const { migProfile } = plan.sharing;
  const devices: Record<string, unknown> = {
    requests: [
      {
        name: DRA_REQUEST_NAME,
        exactly:
          migProfile === undefined
            ? gpuRequest(plan)
            : migInstanceRequest(plan, migProfile),
      },
    ],
  };
  if (sharing) {
    devices.config = [
      {
        requests: [DRA_REQUEST_NAME],
        opaque: {
          driver: DRA_DRIVER,
          parameters: {
            apiVersion: 'resource.nvidia.com/v1beta1',
            kind: 'GpuConfig',
            sharing,
          },
        },
      },
    ];
  }
  return {
    apiVersion: 'resource.k8s.io/v1',
    kind: 'ResourceClaimTemplate',
    metadata: {
      name: resourceClaimTemplateName(name),
      namespace,
      labels: {
        [WELL_KNOWN_KEYS.appName]: name,
        [WELL_KNOWN_KEYS.managedBy]: MANAGED_BY,
      },
    },
    spec: { spec: { devices } },
  };
}
