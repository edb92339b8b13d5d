/**
 * The config a GPU node without a config label runs: the product names its
 * whole-GPU device-plugin config `default` (the key the bootstrap writes into
 * the device-plugin ConfigMap and the GPU Operator's ClusterPolicy names as
 * `devicePlugin.config.default`).
 *
 * @public
 */
export const DEFAULT_DEVICE_PLUGIN_CONFIG = 'default';

/**
 * The mig-parted config that keeps MIG off, the one the GPU Operator's MIG
 * manager applies to nodes without a `nvidia.com/mig.config` label
 * (ClusterPolicy `migManager.config.default`, default `all-disabled`:
 * NVIDIA gpu-operator, deployments/gpu-operator/values.yaml, v25.x/v26.x).
 *
 * @public
 */
export const DEFAULT_MIG_CONFIG = 'all-disabled';
