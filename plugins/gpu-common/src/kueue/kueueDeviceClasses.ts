/**
 * How Kueue counts a DRA pool's claims: its `Configuration` maps each
 * DeviceClass a ResourceClaimTemplate names to a quota resource
 * (`resources.deviceClassMappings`, kubernetes-sigs/kueue v0.19.2
 * `apis/config/v1beta2/configuration_types.go` `DeviceClassMapping`;
 * `site/content/en/docs/tasks/manage/setup_dra.md`, "ResourceClaimTemplate
 * path", beta and on by default since v0.18 under the `KueueDRAIntegration`
 * gate, the name `DynamicResourceAllocation` had before v0.18). Each device
 * request counts its `count` (1 by default): one per replica, since each
 * replica claims one device or one consumable share (planner/sharingDra.ts).
 *
 * `gpu.nvidia.com` maps to `nvidia.com/gpu`, the `extendedResourceName` the
 * NVIDIA DRA driver's chart gives that DeviceClass (dra-driver-nvidia-gpu
 * `deployments/helm/.../templates/deviceclass-gpu.yaml`), so a pod asking
 * `nvidia.com/gpu` through Kueue's extended-resource path is charged under
 * the same name. `mig.nvidia.com` has no extended resource name: its own.
 */
import { DRA_DEVICE_CLASS } from '../planner/sharingDra';
import { DRA_MIG_DEVICE_CLASS } from '../planner/sharingDraMig';

/**
 * One entry of Kueue's `resources.deviceClassMappings`.
 *
 * @public
 */
export interface KueueDeviceClassMapping {
  name: string;
  deviceClassNames: string[];
}

const MAPPINGS: readonly KueueDeviceClassMapping[] = [
  { name: 'nvidia.com/gpu', deviceClassNames: [DRA_DEVICE_CLASS] },
  { name: 'mig.nvidia.com', deviceClassNames: [DRA_MIG_DEVICE_CLASS] },
];

/**
 * Every mapping the product's DRA pools need, for the Configuration the
 * bootstrap writes: Kueue reads them only at start, so all are set at once
 * rather than as each pool appears.
 *
 * @public
 */
export function kueueDeviceClassMappings(): KueueDeviceClassMapping[] {
  return MAPPINGS.map(m => ({
    ...m,
    deviceClassNames: [...m.deviceClassNames],
  }));
}

/** The mapping that counts a pool's resource, when it is a DRA DeviceClass. */
export function deviceClassMappingOf(
  poolResource: string,
): KueueDeviceClassMapping | undefined {
  return MAPPINGS.find(m => m.deviceClassNames.includes(poolResource));
}

/**
 * The resource a pool's flavor is quota'd in: a DRA pool's DeviceClass
 * through its mapping, any other pool's own resource.
 *
 * @public
 */
export function kueueResourceName(poolResource: string): string {
  return deviceClassMappingOf(poolResource)?.name ?? poolResource;
}

/**
 * The mappings Kueue needs for the DRA pools among `poolResources` (every
 * pool the product may plan when undefined) that `configured`, a
 * Configuration's `resources.deviceClassMappings`, does not hold: a
 * mapping is held when one of the same resource name names each of its
 * DeviceClasses.
 *
 * @public
 */
export function missingDeviceClassMappings(
  configured: readonly KueueDeviceClassMapping[],
  poolResources?: readonly string[],
): KueueDeviceClassMapping[] {
  return kueueDeviceClassMappings().filter(
    needed =>
      (!poolResources ||
        needed.deviceClassNames.some(c => poolResources.includes(c))) &&
      !configured.some(
        c =>
          c.name === needed.name &&
          needed.deviceClassNames.every(d => c.deviceClassNames.includes(d)),
      ),
  );
}

/**
 * What Kueue's Configuration must hold for the DRA pools among
 * `poolResources` beyond the mappings it holds already (`configured`, as
 * the repository's Kueue Configuration sets them), and how to set it:
 * Kueue reads the mappings once, at start (setup_dra.md), so the
 * controller must restart after the change.
 */
export function deviceClassMappingWarning(
  poolResources: readonly string[],
  configured: readonly KueueDeviceClassMapping[] = [],
): string | undefined {
  const needed = missingDeviceClassMappings(configured, poolResources);
  if (needed.length === 0) return undefined;
  const entries = needed
    .map(
      m =>
        `{name: ${m.name}, deviceClassNames: [${m.deviceClassNames.join(', ')}]}`,
    )
    .join(', ');
  return (
    `Kueue counts this cluster's DRA claims only through its Configuration: set ` +
    `resources.deviceClassMappings: [${entries}] in the kueue-manager-config ConfigMap ` +
    `(kueue-system, key controller_manager_config.yaml; feature gate KueueDRAIntegration, on by default since Kueue v0.18), ` +
    `then restart deployment/kueue-controller-manager: Kueue reads the mappings only at start, and leaves a workload whose claim names an unmapped DeviceClass inadmissible`
  );
}
