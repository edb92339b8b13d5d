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
 * time-slicing when slices are planned, none for an exclusive claim. Both
 * need the driver's `MPSSupport` / `TimeSlicingSettings` feature gates.
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
  if (slicesPerGpu && slicesPerGpu > 1) {
    return {
      strategy: 'TimeSlicing',
      timeSlicingConfig: { interval: 'Default' },
    };
  }
  return undefined;
}

/**
 * ResourceClaimTemplate `resource.k8s.io/v1` (Kubernetes ≥ 1.34): each pod
 * gets its own claim for one GPU of at least the requested memory. The memory
 * selector uses the driver's `memory` capacity (bytes, a quantity).
 */
export function buildResourceClaimTemplate(plan: Plan): KubernetesObject {
  const { name, namespace } = plan.request.metadata;
  const sharing = gpuSharingConfig(plan);
  const devices: Record<string, unknown> = {
    requests: [
      {
        name: DRA_REQUEST_NAME,
        exactly: {
          deviceClassName: DRA_GPU_DEVICE_CLASS,
          count: 1,
          selectors: [
            {
              cel: {
                expression: `device.capacity['${DRA_DRIVER}'].memory.compareTo(quantity('${plan.perReplica.vramGiB}Gi')) >= 0`,
              },
            },
          ],
        },
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
