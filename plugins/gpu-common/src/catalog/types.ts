/**
 * The GPU catalog: the facts the planner needs about GPU models, their MIG
 * geometry and the machines (cloud instance types or on-prem flavors) that
 * carry them. The built-in data lives beside this file; organisations extend
 * or override it through configuration (see `mergeCatalog`).
 */

/**
 *  GPU architecture family, as GFD reports it in `nvidia.com/gpu.family`.
 *
 * @public
 */
export type GpuArchitecture =
  'volta' | 'turing' | 'ampere' | 'ada-lovelace' | 'hopper' | 'blackwell';

/**
 * One MIG GPU-instance profile on one GPU model, e.g. `3g.20gb` on an A100-40GB.
 * Geometry follows `nvidia-smi mig -lgipp`: an instance occupies the memory
 * slices `[start, start + memorySlices)` for one of `startSlots`.
 *
 * @public
 */
export interface MigProfile {
  /** mig-parted / NVML profile name, e.g. `1g.10gb`, `1g.10gb+me`. */
  name: string;
  /** Memory an instance really offers, in MiB (below the marketing name). */
  memoryMiB: number;
  /** Compute slices (the `Ng` in the name). */
  computeSlices: number;
  /** Memory slices the instance occupies. */
  memorySlices: number;
  /** Allowed start memory-slice indices. */
  startSlots: number[];
  /** Instances available on an empty GPU. */
  maxCount: number;
}

/** @public */
export interface MigGeometry {
  /** Memory slices of the whole GPU (8 for A100/H100-class, 4 for A30-class). */
  memorySlices: number;
  /** Compute slices of the whole GPU (7 or 4). */
  computeSlices: number;
  /** PCI device ids mig-parted uses in `device-filter`, e.g. `0x20B010DE`. */
  pciDeviceIds: string[];
  profiles: MigProfile[];
}

/** @public */
export interface GpuModel {
  /** Catalog id used in requests, e.g. `a100-40gb`. DNS-1123 label. */
  id: string;
  /** Human name, e.g. `NVIDIA A100-SXM4-40GB`. */
  displayName: string;
  /** Usable memory per GPU in MiB, as EC2 / NVML report it. */
  memoryMiB: number;
  architecture: GpuArchitecture;
  /** CUDA compute capability, e.g. `8.0`. */
  computeCapability: string;
  /** Max MPS clients per GPU: 48 at compute capability ≥ 7.5, else 16. */
  mpsMaxReplicas: number;
  /** Present only when the GPU supports MIG. */
  mig?: MigGeometry;
}

/**
 *  Where a machine shape comes from; decides which clusters can get it. The
 *  Cluster API infrastructures each have their own: `openstack` (Nova
 *  flavors CAPO launches), `vsphere` (VM shapes CAPV clones, declared by the
 *  platform) and `metal3` (classes of bare-metal hosts CAPM3 claims).
 *
 * @public
 */
export type MachineProvider =
  'aws' | 'azure' | 'static' | 'openstack' | 'vsphere' | 'metal3' | 'gcp';

/**
 * How a `vsphere` machine's VM is built besides its CPUs and memory: its
 * disk, and how its GPUs reach it (CAPV `pciDevices`): by PCI passthrough of
 * a GPU with `pciDeviceId`, or as an NVIDIA vGPU of profile `vgpuProfile`.
 *
 * @public
 */
export interface VSphereMachine {
  /** The VM's disk in GiB (`diskGiB`). */
  diskGiB: number;
  /**
   * PCI passthrough: the device id of the hosts' GPUs, 4 lowercase hex digits
   * as vSphere lists them (e.g. `20f1` for an A100 PCIe 40GB); the vendor is
   * NVIDIA's. Absent exactly when `vgpuProfile` is set.
   */
  pciDeviceId?: string;
  /**
   * NVIDIA vGPU: the profile each of the machine's GPUs is (e.g.
   * `grid_a100-40c`). The planner counts a whole GPU of the model per vGPU,
   * so the profile must hold the GPU's whole memory; a vGPU cannot be
   * partitioned with MIG from the guest.
   */
  vgpuProfile?: string;
}

/**
 *  One machine shape that carries GPUs: an EC2 instance type, an Azure VM
 *  size, an on-prem flavor, a vSphere VM shape or a bare-metal host class.
 *
 * @public
 */
export interface InstanceType {
  /**
   * e.g. `g5.2xlarge`, an OpenStack flavor name, or (`metal3`) the value of
   * the host class label the platform puts on the class's BareMetalHosts.
   */
  name: string;
  /** e.g. `g5`; for on-prem flavors any grouping name. */
  family: string;
  provider: MachineProvider;
  /** Catalog id of the GPU model. */
  gpuModel: string;
  gpusPerNode: number;
  /** Memory per GPU in MiB as the provider reports it. */
  gpuMemoryMiB: number;
  vcpu: number;
  memoryMiB: number;
  /** On-demand price in USD per hour (0 when unknown or owned hardware). */
  onDemandUsdPerHour: number;
  /** Value of Karpenter's `karpenter.k8s.aws/instance-gpu-name` label (AWS only), e.g. `a10g`. */
  karpenterGpuName?: string;
  /** Provider `vsphere` only (required there): the VM's disk and how its GPUs attach. */
  vSphere?: VSphereMachine;
}

/** @public */
export interface GpuCatalog {
  models: GpuModel[];
  instanceTypes: InstanceType[];
}
