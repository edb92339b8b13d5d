import type { InstanceType, MachineProvider } from '../catalog/types';
import type { ClusterProfile, ClusterProvider } from '../cluster/types';
import { WELL_KNOWN_KEYS } from '../manifests/metadataKeys';
import { awsMachines, ec2NameLabels } from './awsMachines';
import { azureMachines, azureNameLabels } from './azureMachines';
import { autoModeNameLabels, eksAutoModeMachines } from './eksAutoModeMachines';
import type { KarpenterMachines } from './types';

const MACHINES_BY_PROVIDER: Record<
  ClusterProvider,
  KarpenterMachines | undefined
> = {
  'aws-karpenter': awsMachines,
  'eks-auto-mode': eksAutoModeMachines,
  'azure-karpenter': azureMachines,
  static: undefined,
  'cluster-api': undefined,
  gke: undefined,
};

/**
 * How the cluster's Karpenter cloud provider names GPU machines; undefined
 * where Karpenter does not launch the nodes. The NodePool and NodeOverlay
 * builders look it up here (not through `poolProviderOf`, whose providers
 * call those builders).
 */
export function karpenterMachinesOf(
  cluster: Pick<ClusterProfile, 'provider'>,
): KarpenterMachines | undefined {
  return MACHINES_BY_PROVIDER[cluster.provider];
}

/** Every Karpenter cloud provider's machines. */
export const KARPENTER_MACHINES: readonly KarpenterMachines[] = Object.values(
  MACHINES_BY_PROVIDER,
).flatMap(machines => (machines ? [machines] : []));

/**
 * The node class (group and kind) of every Karpenter cloud provider
 * (`karpenter.k8s.aws` `EC2NodeClass`, `karpenter.azure.com`
 * `AKSNodeClass`).
 *
 * @public
 */
export const KARPENTER_NODE_CLASSES: readonly {
  group: string;
  kind: string;
}[] = KARPENTER_MACHINES.map(machines => machines.nodeClass);

/**
 * The node label carrying a machine's physical GPU count, of every
 * Karpenter cloud provider (NodeOverlay selectors name a node's GPUs so).
 *
 * @public
 */
export const KARPENTER_GPU_COUNT_LABELS: readonly string[] =
  KARPENTER_MACHINES.map(machines => machines.gpuCountLabel);

const NAME_LABELS: Readonly<
  Record<string, (name: string) => Record<string, string>>
> = {
  [awsMachines.nodeClass.group]: ec2NameLabels,
  [azureMachines.nodeClass.group]: azureNameLabels,
  [eksAutoModeMachines.nodeClass.group]: autoModeNameLabels,
};

/**
 * The labels a NodePool's Karpenter provider (by its `nodeClassRef` group)
 * derives from an instance type's name alone (EC2 family and size, an Azure
 * size's name); empty for a group no provider of the product's has.
 */
export function machineNameLabelsOf(
  nodeClassGroup: string | undefined,
  name: string,
): Record<string, string> {
  return (nodeClassGroup && NAME_LABELS[nodeClassGroup]?.(name)) || {};
}

/**
 * Kinds of the node classes Karpenter's providers define (`EC2NodeClass`,
 * `AKSNodeClass`): a pool file may carry one, written once per cluster.
 *
 * @public
 */
export const NODE_CLASS_KINDS: readonly string[] = KARPENTER_NODE_CLASSES.map(
  nodeClass => nodeClass.kind,
);

/** The Karpenter cloud provider of each catalog machine provider Karpenter launches. */
const KARPENTER_MACHINES_BY_MACHINE: Partial<
  Record<MachineProvider, KarpenterMachines>
> = { aws: awsMachines, azure: azureMachines };

/**
 * Each catalog machine's labels, made once (frozen: every caller shares
 * them): a pool's cost judges every machine of its model against its
 * requirements, and the GPU page prices every pool (a first `GET /pools`
 * of the 2k-pool bench repository: 520 → 290 ms of CPU without remaking them).
 */
const machineLabelsByType = new WeakMap<
  InstanceType,
  Readonly<Record<string, string>>
>();

/**
 * The well-known labels a catalog machine's nodes carry that the catalog
 * knows: its Karpenter provider's (family, size, CPUs, GPUs...), or only its
 * name as `node.kubernetes.io/instance-type` for machines Karpenter does not
 * launch.
 */
export function machineLabelsOf(type: InstanceType): Record<string, string> {
  let labels = machineLabelsByType.get(type);
  if (!labels) {
    labels = Object.freeze(
      KARPENTER_MACHINES_BY_MACHINE[type.provider]?.machineLabels(type) ?? {
        [WELL_KNOWN_KEYS.instanceType]: type.name,
      },
    );
    machineLabelsByType.set(type, labels);
  }
  return labels;
}

/**
 * Whose machines a NodePool launches, by the group of its `nodeClassRef`
 * (`karpenter.k8s.aws`: EC2, `karpenter.azure.com`: Azure VMs); undefined
 * for a group no Karpenter provider of the product's has.
 *
 * @public
 */
export function machineProviderOfNodeClass(
  group: string | undefined,
): MachineProvider | undefined {
  // EKS Auto Mode launches EC2 machines, as Karpenter's AWS provider does.
  if (group === eksAutoModeMachines.nodeClass.group) return 'aws';
  const found = Object.entries(KARPENTER_MACHINES_BY_MACHINE).find(
    ([, machines]) => machines?.nodeClass.group === group,
  );
  return found?.[0] as MachineProvider | undefined;
}

/** Whether Karpenter launches machines of this catalog provider (EC2, Azure VMs). */
export function isKarpenterMachine(type: InstanceType): boolean {
  return KARPENTER_MACHINES_BY_MACHINE[type.provider] !== undefined;
}
