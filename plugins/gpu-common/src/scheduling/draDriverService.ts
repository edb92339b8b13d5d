/**
 * The DRA driver's part in which server a pool's GPUs get
 * (`devicePluginService.ts`):
 *
 * - a DRA pool (its nodes labelled `nvidia.com/gpu.deploy.device-plugin=false`,
 *   `planner/sharingDra.ts`) gets its GPUs from NVIDIA's DRA driver only:
 *   with none publishing them there no claim is ever allocated, and a
 *   device plugin beside it registers the same GPUs a second time;
 * - a device-plugin pool whose nodes also run a DRA driver publishing GPUs
 *   (`gpuResourcesEnabledOverride`) has each GPU handed out twice, which is
 *   why the driver's chart refuses that default
 *   (kubernetes-sigs/dra-driver-nvidia-gpu v0.4.1 `templates/validation.yaml`).
 *
 * Nothing is said when the repository declares no GPU server at all: what
 * runs is then installed elsewhere, as `devicePluginService` assumes.
 */
import type { ClusterGpuStack, DeployedDraDriver } from '../cluster/gpuStack';
import { DEVICE_PLUGIN_DEPLOY_LABEL } from '../planner/sharingDra';
import { landingRefusal } from './landingPools';
import type { PoolNodeShape } from './nodeShape';

/** What to install for a DRA pool, in a reviewer's words. */
const INSTALL_DRA_DRIVER =
  "install NVIDIA's DRA driver (Helm chart dra-driver-nvidia-gpu, with resources.gpus.enabled: true and gpuResourcesEnabledOverride: true, its kubelet plugin placed on these nodes)";

/** A pool whose nodes keep the GPU Operator's device plugin off: a DRA pool. */
export function isDraPool(shape: PoolNodeShape): boolean {
  return shape.labels[DEVICE_PLUGIN_DEPLOY_LABEL] === 'false';
}

/** Why the driver publishes no GPU on the pool's running nodes; undefined when it does. */
function notPublishing(
  driver: DeployedDraDriver,
  running: PoolNodeShape,
): string | undefined {
  if (!driver.servesGpus) {
    return 'it publishes no GPUs (resources.gpus.enabled needs gpuResourcesEnabledOverride: true)';
  }
  return (
    driver.placement &&
    landingRefusal({ ...driver.placement, gpuResources: {} }, running)
  );
}

/**
 * What the DRA driver leaves wrong on the pool's nodes. `running`: the
 * pool's nodes with GPU discovery's labels on them; `devicePlugins`: the
 * device plugins serving them (their `setting`s).
 */
export function draDriverProblems(
  shape: PoolNodeShape,
  running: PoolNodeShape,
  stack: ClusterGpuStack,
  devicePlugins: readonly string[],
): string[] {
  const drivers = stack.draDrivers ?? [];
  const nodes = `the nodes of ${shape.kind} ${shape.pool}`;
  const publishing = drivers.filter(
    d => notPublishing(d, running) === undefined,
  );
  if (!isDraPool(shape)) {
    if (publishing.length === 0 || devicePlugins.length === 0) return [];
    return [
      `${nodes} run both a device plugin (${devicePlugins.join('; ')}) and NVIDIA's DRA driver publishing their GPUs (${publishing.map(d => d.setting).join('; ')}, gpuResourcesEnabledOverride): each hands out the same GPUs; keep the DRA driver's kubelet plugin off these nodes, or label them ${DEVICE_PLUGIN_DEPLOY_LABEL}=false and serve them by DRA only`,
    ];
  }
  const problems: string[] = [];
  if (devicePlugins.length > 0) {
    problems.push(
      `${nodes} are a DRA pool, but a device plugin runs there too (${devicePlugins.join('; ')}): it registers the GPUs the DRA driver hands out; keep it off these nodes`,
    );
  }
  const declared = drivers.length > 0 || stack.devicePlugins !== undefined;
  if (publishing.length === 0 && declared) {
    const why = drivers.map(d => `${d.setting}: ${notPublishing(d, running)}`);
    problems.push(
      `no DRA driver publishes the GPUs of ${nodes}${why.length > 0 ? ` (${why.join('; ')})` : ' (the repository deploys none)'}, so no ResourceClaim of DeviceClass gpu.nvidia.com is ever allocated there; ${INSTALL_DRA_DRIVER}`,
    );
  }
  return problems;
}
