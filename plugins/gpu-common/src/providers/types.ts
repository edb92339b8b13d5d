import type {
  GpuCatalog,
  InstanceType,
  MachineProvider,
} from '../catalog/types';
import type { ClusterProfile, ClusterProvider } from '../cluster/types';
import type { NodeSelectorRequirement } from '../manifests/nodeSelectorRequirement';
import type { KubernetesObject } from '../manifests/types';
import type { Plan } from '../planner/types';

/**
 * What differs between the places a GPU pool can live. The planner and the
 * manifest builders ask the cluster's provider (`poolProviderOf`) instead of
 * testing provider names, so adding a provider is one file in this folder.
 *
 * @public
 */
export interface PoolProvider {
  /** The profile's `provider` value. */
  readonly id: ClusterProvider;
  /** Shown beside a cluster's name in the request form, e.g. `AWS (Karpenter)`. */
  readonly displayName: string;
  /** Whose machine shapes of the catalog the cluster can get. */
  readonly machines: MachineProvider;
  /**
   * The kind of the object that is the pool in the repository (`NodePool`,
   * `MachineDeployment`): it carries the pool's name, annotations and ledger.
   */
  readonly poolKind: string;
  /**
   * Present when Karpenter launches the pool's nodes. Karpenter learns only
   * physical GPUs from the cloud: time slices, MPS clients and mixed-strategy
   * MIG instances exist for it only through NodeOverlays, behind its
   * NodeOverlay feature gate.
   */
  readonly karpenter?: KarpenterMachines;
  /**
   * The label the provider itself puts on a pool's nodes, naming the pool
   * (GKE's `cloud.google.com/compute-class`); absent: Karpenter's
   * `karpenter.sh/nodepool` where Karpenter launches the nodes, else the
   * product's `<labelDomain>/pool` (`poolNodeLabel.ts`).
   */
  readonly nodePoolLabel?: string;
  /**
   * The objects that declare the plan's pool, in the order they go into the
   * pool's file, the `poolKind` object first; empty where nothing is written
   * for a pool. `catalog`: the one the plan was made with, for machine facts
   * the plan does not carry (a flavor's vCPUs and memory).
   */
  poolObjects(
    plan: Plan,
    cluster: ClusterProfile,
    catalog?: GpuCatalog,
  ): KubernetesObject[];
}

/**
 * How a Karpenter cloud provider names a GPU machine's facts.
 *
 * @public
 */
export interface KarpenterMachines {
  /** Node label carrying a machine's physical GPU count (NodeOverlay selectors). */
  readonly gpuCountLabel: string;
  /** The node class kind this provider's NodePools reference. */
  readonly nodeClass: { group: string; kind: string };
  /**
   * The well-known node labels by which a NodePool's requirements keep it on
   * this provider's GPU machines (`gpuMachineLabels.ts` reads them).
   */
  readonly gpuLabels: KarpenterGpuLabels;
  /**
   * Requirements that keep a pool on NVIDIA machines, written before the
   * instance types (a second guard beside the pinned names).
   */
  gpuRequirements(plan: Plan): NodeSelectorRequirement[];
  /**
   * The well-known node labels Karpenter's provider gives a catalog machine,
   * those the catalog knows the value of: what a pool's requirements are
   * matched against (providers/karpenterRequirements.ts).
   */
  machineLabels(type: InstanceType): Record<string, string>;
  /** CPU architectures of the machines, or undefined when not written. */
  architectures(instanceTypes: string[]): string[] | undefined;
  /**
   * The cluster's GPU node class, as the product writes it; absent where the
   * node class is never the product's to write (EKS Auto Mode's).
   */
  buildNodeClass?(cluster: ClusterProfile): KubernetesObject;
  /**
   * Well-known labels this provider refuses in a NodePool's requirements
   * (EKS Auto Mode: `kubernetes.io/os`, it runs Linux only); absent: none.
   */
  readonly unsupportedRequirementKeys?: readonly string[];
}

/**
 * The labels Karpenter's cloud provider puts on the machines it launches
 * that tell GPU machines apart: a requirement on one of them is how a
 * hand-written NodePool asks for GPUs.
 *
 * @public
 */
export interface KarpenterGpuLabels {
  /**
   * Labels a machine carries only when it has GPUs (count, name,
   * manufacturer, memory): requiring one (`In` a non-zero value, `Exists`,
   * `Gt`) asks for GPU machines.
   */
  readonly gpuKeys: readonly string[];
  /**
   * Labels naming the machine (size, family, series, category), each with
   * the rule telling which of its values are GPU machines.
   */
  readonly machineKeys: Readonly<Record<string, (value: string) => boolean>>;
  /** The label naming the GPU (`a10g`, `T4`), for the pool's model. */
  readonly gpuNameKey: string;
  /** Labels whose value is a machine name of the catalog (`g5.xlarge`, `Standard_NC4as_T4_v3`). */
  readonly machineNameKeys: readonly string[];
  /** Catalog models a value of `gpuNameKey` may name. */
  modelsNamed(gpuName: string, catalog: GpuCatalog): string[];
}
