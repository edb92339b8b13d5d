/**
 * The allocation model: what the `gpu` backend serves and the frontend shows.
 * Shared types (the HTTP contract of plugins/gpu-backend), isomorphic.
 */
import type { NodeSelectorTerm } from '../manifests/contradictingSelectors';
import type { PoolUsage } from './poolUsage';
import type { PlanJson } from '../output/planJson';
import type { PoolCostView } from '../planner/types';
import type { GpuRequest, SharingMode, WorkloadKind } from '../request/types';
import type { QuotaUse } from './requestForm';

/**
 *  One GPU request of a component, as the GitOps repository holds it.
 *
 * @public
 */
export interface GpuAllocation {
  /** `<namespace>/<name>` of the request / workload. */
  id: string;
  namespace: string;
  name: string;
  /** Catalog entity the workload maps to (`backstage.io/kubernetes-id`). */
  entityRef?: string;
  owner?: string;
  cluster: string;
  /**
   * What its pods land on: a pool of the product's, else (`teamNodes`) the
   * first of the team's own GPU nodes that take them; '' when neither.
   * Shown in words by `allocationPoolLabel`.
   */
  pool: string;
  /**
   * Its pods land only on GPU nodes no pool of the product's describes (a
   * team's hand-written NodePool, its NFD-labelled servers): their names.
   * Nothing is counted or priced there, so `pool` is not the product's.
   */
  teamNodes?: string[];
  gpuModel: string;
  sharingMode: SharingMode;
  /** What each replica asks for, e.g. `nvidia.com/gpu.shared`. */
  resourceName: string;
  replicas: number;
  /** Units of `resourceName` per replica. */
  perReplica: number;
  /**
   * Physical GPUs one replica holds (0.25, 0.5, 2, ...): what its quota and
   * cost count, so replicas × gpuSharePerReplica = `physicalGpus`.
   */
  gpuSharePerReplica: number;
  /** MIG only: the part of a GPU's compute a replica's instance runs on (1g.10gb: 1/7). */
  computeSharePerReplica?: number;
  /** VRAM a replica may use, in MiB, and whether the mode isolates it. */
  vramMiBPerReplica: number;
  vramGuaranteed: boolean;
  /** MIG profile per replica, when MIG. */
  migProfile?: string;
  /** Physical-GPU equivalents the whole request holds (quota unit). */
  physicalGpus: number;
  /**
   * What it holds in GPU equivalents and what they are (`gpuHoldingTitle`):
   * `0.5 GPU — 2 time-slices of a T4`, the pull request's title says the same.
   * Set by `GET /allocation` on every allocation.
   */
  title?: string;
  /**
   * Attributed cost: its share of its pool's nodes by the units its pool's
   * ledger gives it (capacity/poolCost.ts); what the PR body and
   * `POST /plan` call "attributed". 0 when the ledger does not list it.
   */
  usdPerMonth: number;
  /** Units of `resourceName` its pool's ledger gives it (what `usdPerMonth` pays for). */
  unitsHeld: number;
  /** Its pool's nodes: their price is every request's share plus the idle cost. */
  poolCost?: PoolCostSummary;
  /** Repository files that define it. */
  sources: string[];
  /**
   * What the developer asked for, when the repository holds the request
   * (`requests/…`): where "Change GPUs" starts the form from.
   */
  requestSpec?: GpuRequest['spec'];
  /** What its GPUs really did over the live-data window, when the cluster has live data. */
  utilization?: AllocationUtilization;
  /**
   * Where the cluster differs from what Git says for it and its pool (its
   * cluster's Kubernetes API, read on the live-data schedule); empty when
   * they agree, absent when the cluster was not read.
   */
  drift?: DriftFinding[];
}

/**
 * What Git holds but the cluster does not (or the other way round), found
 * by reading the cluster's Kubernetes API.
 *
 * @public
 */
export type DriftKind =
  | 'nodepool-missing'
  | 'nodepool-not-ready'
  | 'nodepool-registration-unhealthy'
  | 'nodeoverlay-missing'
  | 'nodeoverlay-gate-off'
  | 'nodeoverlay-invalid'
  | 'device-plugin-config-missing'
  | 'mig-config-failed'
  | 'allocatable-differs'
  | 'pods-pending'
  | 'scheduler-not-running'
  | 'claim-unallocated'
  | 'nodepool-not-in-git'
  | 'machinedeployment-missing'
  | 'machinedeployment-not-ready'
  | 'machinedeployment-not-in-git'
  | 'nodefeaturerule-missing'
  | 'nodefeaturerule-node-unlabeled'
  | 'nodefeaturerule-not-in-git'
  | 'computeclass-missing'
  | 'computeclass-not-in-git';

/**
 * One difference between Git and the cluster, in words.
 *
 * @public
 */
export interface DriftFinding {
  kind: DriftKind;
  /**
   * The cluster object it is about, by the kind the pool really is:
   * `NodePool/gpu-t4-ts4`, `MachineDeployment/capi-ml-prod/gpu-t4-ts4`,
   * `NodeFeatureRule/gpu-t4-ts4`, `ComputeClass/gpu-l4-ts4`, `Node/ip-10-0-1-7`, `Pod/ml/chat-7d9f-x2x7q`.
   */
  object: string;
  /** What differs and what it does, for the badge's tooltip and the API. */
  message: string;
  /** Pending pods: their latest scheduling events (`FailedScheduling: 0/3 nodes are available: ...`). */
  events?: string[];
}

/**
 * `GET /right-size?entityRef=`: the entity's allocations that used far less
 * (or more) than they hold, each with the plan that fits. Apart from
 * `GET /allocation` because it runs the planner: the card shows its
 * allocation at once and the suggestions when they come.
 *
 * @public
 */
export interface RightSizeResponse {
  entityRef: string;
  suggestions: {
    /** The allocation's `id` and `cluster`. */
    id: string;
    cluster: string;
    suggestion: RightSizeSuggestion;
  }[];
}

/**
 * A plan that fits an allocation's measured peak with headroom, planned by
 * the planner against the repository as it is (so "Change GPUs" with
 * `requestSpec` opens a pull request with these very numbers).
 *
 * @public
 */
export interface RightSizeSuggestion {
  /** The request as it would be changed: the form "Change GPUs" opens. */
  requestSpec: GpuRequest['spec'];
  sharingMode: SharingMode;
  pool: string;
  resourceName: string;
  /** VRAM per replica it would get, MiB (at least the measured peak + headroom). */
  vramMiBPerReplica: number;
  migProfile?: string;
  slicesPerGpu?: number;
  /** Its attributed cost per month after the change, and what that saves. */
  usdPerMonth: number;
  savedUsdPerMonth: number;
  /** Why, in words: the measured peak and the headroom kept. */
  reason: string;
}

/**
 * What an allocation's GPUs did over the window, from the DCGM exporter as
 * Prometheus scraped it.
 *
 * @public
 */
export interface AllocationUtilization {
  /**
   * `per-pod`: the series of its own pods (exclusive GPUs, MIG instances);
   * `per-gpu`: the whole GPUs its replicas share with the pool's other
   * replicas (time-slicing, MPS) — the exporter cannot split them, and
   * neither do we; `none`: no series of its pods in the window.
   */
  attribution: 'per-pod' | 'per-gpu' | 'none';
  /** The look-back window, a PromQL duration (`7d`). */
  window: string;
  /** Pods (or, per GPU, devices) the figures come from. */
  sources: number;
  /** VRAM used, MiB: the 95th percentile and the peak of the window (the highest of its devices). */
  vramP95MiB?: number;
  vramPeakMiB?: number;
  /** VRAM a replica may use (the plan's), MiB. */
  vramAllottedMiB: number;
  /** Mean engine activity, 0 to 1 (profiling, else GPU utilisation). */
  active?: number;
  /** Mean SM activity, 0 to 1, where the exporter reports `DCGM_FI_PROF_SM_ACTIVE`. */
  smActive?: number;
  /** Hours of the window its GPUs were idle (engine under 5 %), averaged over its devices. */
  idleHours?: number;
  status: 'ok' | 'idle' | 'oversubscribed' | 'no-data';
  /** The status in words, for the badge's tooltip and the API. */
  reason: string;
}

/**
 * Whether live data came from a cluster's Prometheus or Kubernetes API, and why not.
 *
 * @public
 */
export interface LiveDataStatus {
  cluster: string;
  /** Which live source: the cluster's Prometheus (utilization) or its Kubernetes API (drift). */
  source: 'prometheus' | 'kubernetes';
  available: boolean;
  /** Why not (unreachable, timed out, refused), in words. */
  reason?: string;
  /** When the figures were read (ISO time). */
  at?: string;
}

/**
 *  A pool's nodes and their price, without who else pays (other entities may be private).
 *
 * @public
 */
export type PoolCostSummary = Omit<PoolCostView, 'shares' | 'nodesBefore'>;

/** @public */
export interface AllocationResponse {
  entityRef: string;
  allocations: GpuAllocation[];
  /** Totals over `allocations` (`usdPerMonth`: the sum of their attributed costs, to the cent). */
  totals: { physicalGpus: number; usdPerMonth: number };
  /** Commit of the GitOps repository the index was built from. */
  revision?: string;
  /** Live data of the allocations' clusters (with `gpu.utilization` configured). */
  live?: LiveDataStatus[];
}

/**
 *  One MIG-partitioned GPU: which profile sits on which memory slices.
 *
 * @public
 */
export interface MigGpuPicture {
  memorySlices: number;
  instances: { profile: string; start: number; memorySlices: number }[];
}

/** @public */
export interface PoolSummary {
  name: string;
  cluster: string;
  gpuModel?: string;
  sharingMode: SharingMode;
  resourceName: string;
  instanceTypes: string[];
  /** Slices / MIG instances / clients per physical GPU (1 for exclusive). */
  unitsPerGpu: number;
  /**
   * The limit in units of `resourceName`, from the NodePool limit (physical
   * GPUs x units per GPU): how far the pool may grow, not what runs (that is
   * `cost.capacityUnits`); undefined when unlimited. Show `usage`.
   */
  capacity?: number;
  /**
   * How full it is against its nodes, and its limit: the one set of figures
   * to show (`GET /pools` sets it on every pool; `poolUsage` makes it from
   * the other fields).
   */
  usage?: PoolUsage;
  /** Units of `resourceName` the requests of its ledger hold. */
  allocated: number;
  /** MIG layout per GPU, when the pool is MIG-partitioned. */
  migLayout?: MigGpuPicture;
  /** Its nodes and their price (= consumers + otherConsumers + idle, to the cent). */
  cost: PoolCostSummary;
  /**
   * The requests holding capacity whose entity the caller may read, and
   * those whose component the catalog does not hold (`inCatalog: false`,
   * owner from the request record), with their attributed cost.
   */
  consumers: {
    id: string;
    entityRef?: string;
    /** False when no catalog entity holds its workload: named by its request, owned as its record says. */
    inCatalog?: false;
    /**
     * The entity's owner (`spec.owner`, as a full ref such as
     * `group:default/ml-platform`), read with the caller's own catalog
     * access: the team the GPU page attributes the cost to.
     */
    owner?: string;
    units: number;
    usdPerMonth: number;
    /**
     * The status its allocation's live figures have (the card's badge:
     * `idle` when its GPUs' engine was under 5 % on average), when its
     * cluster has live data.
     */
    utilizationStatus?: AllocationUtilization['status'];
  }[];
  /** The requests holding capacity whose entity the caller may not read, summed. */
  otherConsumers?: { count: number; units: number; usdPerMonth: number };
  /** What the pool's GPUs did over the live-data window, when its cluster has live data. */
  utilization?: PoolUtilization;
  /** Where its cluster differs from Git for the pool (empty: they agree; absent: not read). */
  drift?: DriftFinding[];
}

/**
 * What a pool's GPUs did over the live-data window, from the DCGM exporter.
 *
 * A GPU counts for the pool when the exporter saw a pod of one of the pool's
 * workloads on it (the pod's owner workload, by the names Kubernetes gives
 * pods, and that workload's pool in the repository). The exporter's series
 * carry no node or NodePool label, so a GPU on which no pod of the pool ran
 * in the window (a node that stayed empty) cannot be attributed and is not
 * counted: `gpusSeen` can be below the pool's nodes' GPUs. A GPU on which
 * pods of several pools ran is not counted either.
 *
 * @public
 */
export interface PoolUtilization {
  /** The look-back window, a PromQL duration (`7d`). */
  window: string;
  /** Physical GPUs seen with a pod of the pool and an engine-activity figure: busy plus idle. */
  gpusSeen: number;
  /**
   * GPUs whose engine was active 5 % or more on average in one of their
   * series (the threshold the allocation figures use).
   */
  busyGpus: number;
  /** GPUs whose engine stayed under 5 % on average in every series. */
  idleGpus: number;
  /** VRAM used, MiB: the sum of each seen device's peak over the window (peaks need not coincide). */
  vramUsedMiB?: number;
  /** VRAM of those devices, MiB (used plus free as the exporter reports it). */
  vramTotalMiB?: number;
  /**
   * What the idle GPUs cost per month: idle GPUs times the pool's price per
   * GPU (its node's price over its GPUs), rounded to the cent.
   */
  idleUsdPerMonth: number;
}

/** @public */
export interface PoolsResponse {
  pools: PoolSummary[];
  revision?: string;
  /** Live data of the pools' clusters (with `gpu.utilization` configured). */
  live?: LiveDataStatus[];
  /** Per cluster read: what runs there that Git no longer has (NodePools we generated). */
  notInGit?: { cluster: string; findings: DriftFinding[] }[];
}

/**
 * A Deployment, StatefulSet, Job or CronJob of the GitOps repository's
 * workload folders, GPU or not, as the allocation index reads it: an
 * existing workload a GPU request can name.
 *
 * @public
 */
export interface RepositoryWorkload {
  kind: WorkloadKind;
  name: string;
  /** Where it runs: its kustomization's `namespace:`, else `metadata.namespace`, else the folder's namespace in the layout. */
  namespace: string;
  /** Repository path of the file holding its manifest. */
  path: string;
  /** Its containers' names, in manifest order. */
  containers: string[];
  /** Pods it runs at once (`replicas`; `parallelism` for Jobs and CronJobs), after its overlay's patches. */
  replicas: number;
  /** The kustomization folder that deploys it, when a kustomization of its workload folder includes it. */
  overlay?: string;
  /** Its pods' `nodeSelector`, after its overlay's patches, when it has one. */
  nodeSelector?: Record<string, string>;
  /** Its pods' required node-affinity terms, after its overlay's patches, when it has any. */
  requiredNodeSelectorTerms?: NodeSelectorTerm[];
}

/**
 *  `GET /workloads?namespace=&name=[&kind=]`: the repository's workloads of that name.
 *
 * @public
 */
export interface WorkloadsResponse {
  /** Every match (one per overlay that deploys it); empty when the index knows none. */
  workloads: RepositoryWorkload[];
  /** The kinds the index reads: a workload of any other kind is never listed. */
  kinds: WorkloadKind[];
  revision?: string;
}

/**
 *  `POST /plan`: a dry-run plan of a request against the current repository.
 *
 * @public
 */
export interface PlanPreviewResponse {
  plan: PlanJson;
  summary: string;
  /** The existing workload the request names, when the index knows it. */
  existing?: RepositoryWorkload & {
    /** The container that gets the GPU. */
    gpuContainer: string;
    /**
     * Where its pods can land today is not one pool of the cluster (several,
     * none, or nodes no pool describes), in the readers' words
     * (`WorkloadState.placementWarning`).
     */
    placementWarning?: string;
  };
  /** The owner's quota on the cluster with this request (the check the actions make). */
  quota?: QuotaUse;
}
