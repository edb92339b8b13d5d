import type { LedgerEntry } from '../capacity/ledger';
import type { NodeSelectorRequirement } from '../manifests/nodeSelectorRequirement';
import type { ClusterGpuStack } from '../cluster/gpuStack';
import type { DevicePluginConfig, MigConfigEntry } from '../manifests/types';
import type { CapacityType, GpuRequest, SharingMode } from '../request/types';
import type { PodScheduling } from '../scheduling/podScheduling';

/**
 * What the GitOps repository already holds, parsed into the core model, so the
 * planner can reuse a compatible pool and never reuse a name for other content.
 * Read by `plugins/gpu-node` (`readRepoState`).
 *
 * @public
 */
export interface RepoState {
  pools: PoolState[];
  /** Named device-plugin configs (ConfigMap keys) → their parsed content. */
  devicePluginConfigs: Record<string, unknown>;
  /** mig-parted `mig-configs` entry names → their parsed entries. */
  migConfigs: Record<string, unknown>;
  workloads: WorkloadState[];
  /**
   * Names of the cluster's NodePools that are not GPU pools of the pool
   * folder (hand-written CPU or GPU pools anywhere in the cluster's folder).
   * A new pool never takes one of these names: kustomize refuses two objects
   * with one name, and the product never edits what it does not manage.
   */
  otherNodePools?: string[];
  /**
   * ConfigMaps of the cluster's folder written by hand that hold named
   * device-plugin configs or mig-parted configs (their entries are in
   * `devicePluginConfigs` / `migConfigs` too, unless a config file of the
   * product's has the same name). Read-only: the product never edits them.
   * When the cluster's device plugin or MIG manager reads one of them (the
   * cluster profile's `devicePluginConfigMap` / `migPartedConfigMap` names
   * it), a plan can only use the configs it holds. Optional: older readers
   * leave it out.
   */
  handWrittenConfigMaps?: HandWrittenConfigMap[];
  /**
   * What the repository runs on the cluster's GPU nodes beyond what the
   * product assumes (another device plugin, no MIG manager); the planner
   * refuses what it cannot run (`cluster/capabilities.ts`). Optional: older
   * readers leave it out.
   */
  gpuStack?: ClusterGpuStack;
}

/**
 * A ConfigMap written by hand that holds NVIDIA sharing configs: named
 * device-plugin configs (one data key each, selected per node by the label
 * `nvidia.com/device-plugin.config`) or a mig-parted config (`mig-configs`
 * entries, selected by `nvidia.com/mig.config`).
 *
 * @public
 */
export interface HandWrittenConfigMap extends HandWrittenConfigMapRef {
  /** Device-plugin configs by data key. */
  devicePluginConfigs: Record<string, unknown>;
  /** mig-parted `mig-configs` entries by name. */
  migConfigs: Record<string, unknown>;
}

/**
 *  A GPU NodePool found in the repository.
 *
 * @public
 */
export interface PoolState {
  name: string;
  /** Repository path of the file that holds it. */
  path: string;
  gpuModel?: string;
  sharingMode: SharingMode;
  slicesPerGpu?: number;
  migProfile?: string;
  resourceName: string;
  /** The values of its `node.kubernetes.io/instance-type` `In` requirement. */
  instanceTypes: string[];
  /** The capacity types its requirements allow (Karpenter's reading: none written, all). */
  capacityTypes: CapacityType[];
  /**
   * A Karpenter pool's `spec.template.spec.requirements`: the machines it may
   * launch are the catalog's that meet them (planner/poolMachines.ts). Optional: older readers and pools of other
   * kinds leave it out, and are read by `instanceTypes` alone.
   */
  requirements?: NodeSelectorRequirement[];
  deviceConfigName?: string;
  migConfigName?: string;
  /** Current `spec.limits[resourceName]`, if any. */
  limit?: number;
  /**
   * All current `spec.limits` (resource name → quantity), if known. The
   * planner limits physical `nvidia.com/gpu`, which `limit` misses for
   * shared pools. Optional: older readers leave it out.
   */
  limits?: Record<string, number>;
  /**
   * The pool's current `spec.template.spec.taints`, if known. A reused pool
   * keeps its taints, so a workload planned onto it must tolerate these (not
   * a freshly derived taint). Optional: older readers leave it out.
   */
  taints?: { key: string; value?: string; effect: string }[];
  /** True when the NodePool carries our `app.kubernetes.io/managed-by` label. */
  managed?: boolean;
  /**
   * The requests holding capacity in the pool (its `<labelDomain>/requests`
   * annotation); undefined when the pool has no ledger yet.
   */
  ledger?: LedgerEntry[];
  /** `<labelDomain>/limit-floor`: a hand-set limit kept as the least limit. */
  limitFloor?: number;
  /**
   * A static pool chosen by node name: the nodes its NodeFeatureRule
   * matches (`system.name` `nodename`), sorted. Undefined for other pools.
   */
  nodeNames?: string[];
}

/**
 *  A GPU workload found in the repository (new Deployment or patch).
 *
 * @public
 */
export interface WorkloadState {
  /** `<namespace>/<name>`. */
  id: string;
  namespace: string;
  name: string;
  path: string;
  pool?: string;
  resourceName: string;
  replicas: number;
  /** Resource units each replica requests. */
  perReplica: number;
  /** `backstage.io/kubernetes-id` label value, if any. */
  kubernetesId?: string;
  /**
   * The GPU request (`<namespace>/<name>`) that gave it its GPUs, as its pod
   * template's `<labelDomain>/request` annotation says: its stored record
   * names the cluster it runs on.
   */
  request?: string;
  /**
   * What its pods ask of a node, as the repository writes them (a patch
   * merged over its base): where they land decides `pool`
   * (`scheduling/workloadPlacement.ts`). Absent: `pool` is the one its
   * selector names, unchecked.
   */
  scheduling?: PodScheduling;
  /**
   * Why it is counted on `pool` although its pods can land on several
   * pools, or on none (then `pool` is absent): what the readers report.
   */
  placementWarning?: string;
  /**
   * Its pods land only on GPU nodes no pool of the product's describes (a
   * team's hand-written GPU NodePools, the GPU servers its NodeFeatureRules
   * label): their names. Then `pool` is absent and nothing is warned: the
   * workload runs, on the team's own nodes.
   */
  unpooledNodes?: string[];
}

/** @public */
export interface Taint {
  key: string;
  value: string;
  effect: 'NoSchedule' | 'PreferNoSchedule' | 'NoExecute';
}

/** @public */
export interface PoolPlan {
  /** Deterministic, e.g. `gpu-t4-ts4`, `gpu-a100-80gb-mig-3g.40gb`. */
  name: string;
  /** Catalog id of the GPU model. */
  gpuModel: string;
  /** Instance types the NodePool may launch, cheapest per slice first. */
  instanceTypes: string[];
  /** Distinct GPU counts per node among `instanceTypes` (one NodeOverlay each). */
  gpuCounts: number[];
  /** Values for `karpenter.k8s.aws/instance-gpu-name`. */
  karpenterGpuNames: string[];
  capacityTypes: CapacityType[];
  /** True when an existing pool from RepoState is reused (its ledger and limits updated). */
  reused: boolean;
  /**
   * A reused pool's file (`PoolState.path`): the writer updates the pool
   * there, wherever in the cluster's folder it lives.
   */
  path?: string;
  /**
   * A reused pool's device-plugin or MIG config label as its nodes run it
   * now: when the plan keeps it, live nodes need no relabel or re-partition.
   */
  liveConfigName?: string;
  /** The taint the pool's pods tolerate (the cluster's GPU taint, or a reused pool's). */
  taint: Taint;
  /**
   * Further taints a reused pool carries (e.g. a hand-written team taint):
   * pods planned onto it must tolerate every one, or they stay Pending.
   */
  otherTaints?: Taint[];
  /** NodePool `spec.template.metadata.labels` (incl. device-plugin / MIG config labels). */
  labels: Record<string, string>;
  /**
   * Labels a reused pool's nodes carry beyond `labels`, read from its file
   * (a hand-written NodePool's template labels and requirements): each key
   * with its values, or `'any'` when any value may come. Set by the writer
   * for the existing-workload selector rule (`scheduling/plannedPoolShape.ts`).
   */
  nodeLabels?: Record<string, readonly string[] | 'any'>;
  /** NodePool `spec.limits`: resource name → quantity, derived from `ledger`. */
  limits: Record<string, number>;
  /** The requests holding capacity in the pool after this change (one annotation line). */
  ledger: LedgerEntry[];
  /** The least limit of a pool whose hand-set limit predates its ledger. */
  limitFloor?: number;
  /**
   * A static pool of a cluster with a node inventory: the inventory nodes
   * it gets (sorted; see planner/staticInventory.ts). With selection by GPU,
   * every node with the pool's model.
   */
  nodeNames?: string[];
}

/**
 *  A pool the request leaves (it was planned onto another pool before).
 *
 * @public
 */
export interface LeftPool {
  name: string;
  /** Repository path of the file that holds it. */
  path: string;
  ledger: LedgerEntry[];
  limitFloor?: number;
  limits: Record<string, number>;
  /**
   * The nodes its remaining requests need (the cost model's count): the size
   * of a pool that is sized by nodes (a Cluster API MachineDeployment).
   */
  nodesAfter: number;
  /** A static pool chosen by node name: the nodes it keeps (sorted). */
  nodeNamesAfter?: string[];
}

/** @public */
export interface SharingPlan {
  mode: SharingMode;
  /** time-slicing: replicas per GPU; MPS: clients per GPU. */
  slicesPerGpu?: number;
  /** MIG: the profile each replica gets, e.g. `1g.10gb`. */
  migProfile?: string;
  /** MIG: the uniform per-GPU layout, profile → count. */
  migLayout?: Record<string, number>;
  /** MIG: mig-parted config name, e.g. `all-1g.10gb`. */
  migConfigName?: string;
  /** time-slicing / MPS: device-plugin config key (content-derived). */
  deviceConfigName?: string;
  /** MPS: pinned device memory per client in MiB. */
  mpsPinnedMemoryMiB?: number;
  /**
   * time-slicing / MPS: the exact device-plugin config `deviceConfigName` was
   * derived from. Builders render this content under that name, so the name
   * always matches the content.
   */
  devicePluginConfig?: DevicePluginConfig;
  /** MIG: the exact mig-parted entries `migConfigName` stands for. */
  migConfigEntries?: MigConfigEntry[];
  /**
   * time-slicing / MPS / MIG on a cluster whose device plugin (MIG manager)
   * reads its configs from a ConfigMap written by hand: that ConfigMap,
   * which holds `deviceConfigName` (`migConfigName`) already. The product
   * never edits it, so the change writes no config.
   */
  handWrittenConfigMap?: HandWrittenConfigMapRef;
  /**
   * time-slicing / MPS on a reused pool whose unlabelled nodes run the GPU
   * Operator's default config, which gives this sharing already
   * (`keepOperatorDefaultConfig`): the change writes no config and no
   * config label, so the NodePool template stays as it was written (its
   * NodeOverlays are still written where the cluster applies them).
   */
  onOperatorDefault?: boolean;
  /**
   * The cluster's provider shares the pool's GPUs itself, as its pool
   * object says (GKE: the ComputeClass's `gpuSharing`, applied by GKE's
   * own device plugin; Bottlerocket: its node class's user data, applied by
   * its built-in device plugin, `nodeClassConfig.ts`): the change writes no
   * device-plugin or mig-parted config and no config label.
   */
  sharedByProvider?: boolean;
}

/**
 * Where a hand-written ConfigMap is: its name, namespace and file.
 *
 * @public
 */
export interface HandWrittenConfigMapRef {
  name: string;
  /** Undefined when the file sets none (a kustomization's `namespace` then applies). */
  namespace?: string;
  /** Repository path of the file that holds it. */
  path: string;
}

/** @public */
export interface Plan {
  request: GpuRequest;
  cluster: string;
  pool: PoolPlan;
  /** Pools that held this request before and no longer do: their ledgers and limits shrink. */
  leftPools: LeftPool[];
  sharing: SharingPlan;
  /** What each replica asks for in `resources.limits`, e.g. `nvidia.com/gpu.shared`. */
  resourceName: string;
  /** Units of `resourceName` per replica (gpusPerReplica for exclusive, else 1). */
  resourcePerReplica: number;
  perReplica: {
    vramGiB: number;
    /** True when the mode isolates memory (exclusive, MIG, MPS pinned limit). */
    vramGuaranteed: boolean;
    /** Memory a replica can count on (or shares, when not guaranteed), in MiB. */
    memoryMiB: number;
    /**
     * Physical GPUs one replica holds (e.g. 0.25, 0.5, 2): what its quota and
     * cost count, so replicas × gpuShare = `physicalGpus`. For MIG, one of
     * the instances its GPU's layout carries.
     */
    gpuShare: number;
    /**
     * MIG only: the part of a GPU's compute its instance runs on (1g.10gb:
     * 1/7), a different figure from what it holds (see `gpuShare`).
     */
    computeShare?: number;
  };
  /**
   * The nodes the pool runs after this change (every request on it, see
   * capacity/poolCost.ts), on the machine type its cost is priced with.
   */
  nodes: {
    expected: number;
    /** Units of `resourceName` one node of `instanceType` offers. */
    slicesPerNode: number;
    instanceType: string;
  };
  /** Physical-GPU equivalents this request holds (for quotas). */
  physicalGpus: number;
  cost: PlanCost;
  /**
   * What the request held before this change, when the repository holds it
   * already (a resize or a move): the PR's "before, after" table.
   */
  previous?: PlanPrevious;
  /** Why this model, this slicing and this pool: for the preview and the PR. */
  decisions: PlanDecisions;
  warnings: string[];
  /** Human-readable reasoning, one line per step. */
  explanation: string[];
}

/**
 * What a request costs, in the one cost model (capacity/poolCost.ts). Money
 * is in USD with two decimals, each figure an exact number of cents.
 *
 * @public
 */
export interface PlanCost {
  /** Attributed: this request's share of its pool's nodes, by the units it holds. */
  usdPerMonth: number;
  /** `usdPerMonth` per hour (÷ 730), for hourly budgets. */
  usdPerHour: number;
  /**
   * Marginal: what this change adds to the bill, the pools' prices after it
   * minus before (0 when it fits capacity already paid for; below 0 when it
   * frees nodes).
   */
  marginalUsdPerMonth: number;
  /** False when the pool's machine has no known price (every figure is then 0). */
  priceKnown: boolean;
  /** The pool after the change: its nodes' price = attributed shares + idle. */
  pool: PoolCostView;
}

/**
 * A request as the repository holds it before a change, priced by the same
 * cost model as the plan.
 *
 * @public
 */
export interface PlanPrevious {
  /** Each pool that held it: the units it held there and the pool's nodes. */
  pools: {
    name: string;
    resourceName: string;
    units: number;
    nodes: number;
    usdPerMonth: number;
  }[];
  /** Its attributed cost per month then (the sum over `pools`). */
  usdPerMonth: number;
}

/**
 *  A pool's nodes and who pays for them (the API, the PR body, the tab).
 *
 * @public
 */
export interface PoolCostView {
  name: string;
  nodes: number;
  /** Nodes before this change (plans only; the tab shows the repository as it is). */
  nodesBefore?: number;
  /** The machine the nodes are priced on; absent when the catalog knows none. */
  instanceType?: string;
  /** One node for a month. */
  nodeUsdPerMonth: number;
  /** The nodes' price: the sum of `shares` and `idleUsdPerMonth`, to the cent. */
  usdPerMonth: number;
  /** What the units nobody holds cost. */
  idleUsdPerMonth: number;
  /** Units of the pool's resource its nodes offer, hold and leave idle. */
  capacityUnits: number;
  allocatedUnits: number;
  idleUnits: number;
  /** Each request on the pool (its ledger) and its attributed cost. */
  shares: { request: string; units: number; usdPerMonth: number }[];
}

/**
 *  One choice the planner made, with what it weighed.
 *
 * @public
 */
export interface PlanDecision {
  /** What was chosen, e.g. `t4`, `4 slices per GPU`, `reuse gpu-t4-ts4`. */
  choice: string;
  /** Why, in one sentence. */
  reason: string;
  /** The options weighed, the chosen one included, and why each was or was not taken. */
  considered: { option: string; chosen: boolean; reason: string }[];
}

/** @public */
export interface PlanDecisions {
  /** The GPU model (as requested, or the one "auto" found cheapest). */
  model: PlanDecision;
  /** The slicing: slices / MPS clients per GPU, the MIG profile, whole GPUs. */
  sharing: PlanDecision;
  /** The pool: reused (which, and why it beat the others) or new (and why no pool was reused). */
  pool: PlanDecision;
}
