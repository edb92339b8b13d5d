/**
 * Cluster API pools in the repository: a MachineDeployment is a GPU pool of
 * the product's when it carries the pool annotations (`<labelDomain>/sharing-mode`
 * ...), as a NodePool does; the labels its nodes get are the kubelet
 * `node-labels` of the KubeadmConfigTemplate it references (Cluster API
 * does not copy other Machine labels to Nodes), its machine type is what its
 * infrastructure template (OpenStack, Azure, AWS, vSphere or Metal3) says. A
 * MachineDeployment without our annotations is someone else's and is never
 * touched.
 */
import {
  computeClassNodes,
  findInstanceType,
  kubeletNodeLabels,
  WELL_KNOWN_KEYS,
  type GpuCatalog,
} from '@gpu-gitops/plugin-gpu-common';
import { getIn, PlainObject, stringRecord } from './yamlObjects';
import { NODE_FEATURE_RULE, ruleNodeLabels } from './nodeFeatureRulePools';
import { COMPUTE_CLASS_KIND } from './computeClassPools';
import { findOurLabel } from './poolLabels';
import { hasPoolAnnotations } from './productPools';

export const MACHINE_DEPLOYMENT = 'MachineDeployment';

/** True when a MachineDeployment carries our pool annotations. */
export function isGpuMachineDeployment(deployment: unknown): boolean {
  return hasPoolAnnotations(deployment);
}

/**
 * True when a MachineDeployment's machines are GPU machines of the catalog
 * (its infrastructure template's vmSize, instanceType or flavor): a team's
 * own GPU workers, e.g. a Cluster API flavor's hand-written `md-0`, whose
 * nodes the workloads land on as on any pool's.
 */
export function runsCatalogGpuMachine(
  deployment: unknown,
  values: unknown[],
  catalog: GpuCatalog,
): boolean {
  const machine = machineTypeOf(templatesOf(deployment, values).infrastructure);
  return (
    machine !== undefined && findInstanceType(catalog, machine) !== undefined
  );
}

/** The object among `values` a MachineDeployment reference (`kind`, `name`) names. */
function referenced(values: unknown[], ref: unknown): unknown {
  const kind = getIn(ref, 'kind');
  const name = getIn(ref, 'name');
  return values.find(
    v => getIn(v, 'kind') === kind && getIn(v, 'metadata', 'name') === name,
  );
}

/** The bootstrap and infrastructure templates a MachineDeployment references, among `values`. */
export function templatesOf(
  deployment: unknown,
  values: unknown[],
): { bootstrap?: unknown; infrastructure?: unknown } {
  const spec = getIn(deployment, 'spec', 'template', 'spec');
  return {
    bootstrap: referenced(values, getIn(spec, 'bootstrap', 'configRef')),
    infrastructure: referenced(values, getIn(spec, 'infrastructureRef')),
  };
}

/** The labels kubelet registers the nodes with (`--node-labels`; gpu-common's reading). */
export const nodeRegistrationLabels = kubeletNodeLabels;

/**
 * Whether Cluster API copies a Machine's label `key` to its Node: only
 * `node-role.kubernetes.io/*` and the `node-restriction.kubernetes.io` and
 * `node.cluster.x-k8s.io` domains and their subdomains (cluster-api
 * `util/labels/helpers.go` `GetManagedLabels`, v1.10+; before,
 * `internal/controllers/machine/machine_controller_noderef.go`
 * `getManagedLabels`). Any other label of a MachineDeployment's template or
 * of a topology entry's `metadata.labels` stays on the Machine: its nodes
 * never carry it (unless the controller runs with
 * `--additional-sync-machine-labels`, which a repository cannot show).
 */
export function syncedToNode(key: string): boolean {
  const domain = key.split('/')[0];
  if (!key.includes('/')) return false;
  if (domain === 'node-role.kubernetes.io') return true;
  return ['node-restriction.kubernetes.io', 'node.cluster.x-k8s.io'].some(
    d => domain === d || domain.endsWith(`.${d}`),
  );
}

/**
 * The labels a MachineDeployment's nodes carry: kubelet's registration
 * labels, and the labels of its machine template (a topology entry's
 * `metadata.labels`) Cluster API copies to the Node (`syncedToNode`).
 */
export function machineNodeLabels(
  deployment: unknown,
  bootstrap: unknown,
): Record<string, string> {
  const synced = Object.entries(
    stringRecord(getIn(deployment, 'spec', 'template', 'metadata', 'labels')),
  ).filter(([key]) => syncedToNode(key));
  return {
    ...Object.fromEntries(synced),
    ...nodeRegistrationLabels(bootstrap),
  };
}

/** The taints kubelet registers the nodes with. */
export function nodeRegistrationTaints(bootstrap: unknown): unknown {
  return getIn(
    bootstrap,
    'spec',
    'template',
    'spec',
    'joinConfiguration',
    'nodeRegistration',
    'taints',
  );
}

/**
 * The field naming the machine in each cloud's machine template spec: an
 * OpenStackMachineTemplate's Nova `flavor` (CAPO v0.14.7), an
 * AzureMachineTemplate's `vmSize` (CAPZ v1.26.0), an AWSMachineTemplate's
 * `instanceType` (CAPA v2.11.1); each a catalog machine's name.
 */
const MACHINE_NAME_FIELDS = ['flavor', 'vmSize', 'instanceType'] as const;

/**
 * The catalog machine an infrastructure template's nodes are: the machine
 * name a cloud's template spec holds (`MACHINE_NAME_FIELDS`), else the
 * machine label a VSphereMachineTemplate or Metal3MachineTemplate of ours
 * carries in `spec.template.metadata` (their specs hold a VM shape or a host
 * selector, not a machine name; gpu-common `manifests/clusterApi/poolTemplate.ts`).
 * Undefined for a template that says neither, e.g. one written by hand.
 */
export function machineTypeOf(infrastructure: unknown): string | undefined {
  const spec = getIn(infrastructure, 'spec', 'template', 'spec');
  for (const field of MACHINE_NAME_FIELDS) {
    const name = getIn(spec, field);
    if (typeof name === 'string') return name;
  }
  // CAPO v1beta2 (v0.15, `api/v1beta2/types.go` `FlavorParam`) names the
  // flavor by a filter: `flavor: {filter: {name}}`.
  const flavorName = getIn(spec, 'flavor', 'filter', 'name');
  if (typeof flavorName === 'string') return flavorName;
  return findOurLabel(
    stringRecord(
      getIn(infrastructure, 'spec', 'template', 'metadata', 'labels'),
    ),
    ['machine'],
  );
}

/**
 * The labels a pool object puts on its nodes: a NodePool's template labels,
 * a MachineDeployment's kubelet registration labels, a NodeFeatureRule's rule labels.
 */
export function poolNodeLabels(
  pool: unknown,
  values: unknown[],
): Record<string, string> {
  if (getIn(pool, 'kind') === MACHINE_DEPLOYMENT) {
    return machineNodeLabels(pool, templatesOf(pool, values).bootstrap);
  }
  if (getIn(pool, 'kind') === NODE_FEATURE_RULE) return ruleNodeLabels(pool);
  if (getIn(pool, 'kind') === COMPUTE_CLASS_KIND) {
    return computeClassNodes(pool).labels;
  }
  return stringRecord(getIn(pool, 'spec', 'template', 'metadata', 'labels'));
}

/** Kinds an object that is a pool may have: a Karpenter NodePool, a Cluster API MachineDeployment, an NFD NodeFeatureRule (static nodes), a GKE ComputeClass. */
export const POOL_OBJECT_KINDS: readonly string[] = [
  'NodePool',
  MACHINE_DEPLOYMENT,
  'NodeFeatureRule',
  COMPUTE_CLASS_KIND,
];

/**
 * A Cluster API pool read as the NodePool it stands for (the readers of
 * pools and the validation rules take it as one): its annotations and
 * labels, its nodes' labels and taints from kubelet registration, its
 * machine (flavor, VM shape or host class) as the one instance type,
 * on-demand (owned machines are never spot).
 */
export function machineDeploymentAsNodePool<T extends PlainObject>(
  deployment: T,
  values: unknown[],
): T {
  const { bootstrap, infrastructure } = templatesOf(deployment, values);
  const machine = machineTypeOf(infrastructure);
  const taints = nodeRegistrationTaints(bootstrap);
  return {
    ...deployment,
    kind: MACHINE_DEPLOYMENT,
    spec: {
      template: {
        metadata: { labels: machineNodeLabels(deployment, bootstrap) },
        spec: {
          requirements: [
            ...(machine
              ? [
                  {
                    key: WELL_KNOWN_KEYS.instanceType,
                    operator: 'In',
                    values: [machine],
                  },
                ]
              : []),
            {
              key: WELL_KNOWN_KEYS.karpenterCapacityType,
              operator: 'In',
              values: ['on-demand'],
            },
          ],
          ...(Array.isArray(taints) ? { taints } : {}),
        },
      },
    },
  };
}
