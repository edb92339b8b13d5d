/**
 * API versions of the Cluster API objects a pool is made of: the storage
 * versions of Cluster API v1.14.0 (`cluster.x-k8s.io` and
 * `bootstrap.cluster.x-k8s.io` v1beta2, kubernetes-sigs/cluster-api v1.14.0
 * `core/config/crd/bases/`, `bootstrap/kubeadm/config/crd/bases/`) and of
 * the infrastructure providers' machine templates: CAPO v0.14.7's one
 * version (kubernetes-sigs/cluster-api-provider-openstack v0.14.7
 * `config/crd/bases/`), CAPV v1.16.1's storage version v1beta2
 * (kubernetes-sigs/cluster-api-provider-vsphere v1.16.1
 * `config/default/crd/bases/`; v1beta1 is still served) and CAPM3 v1.13.2's
 * storage version v1beta2 (metal3-io/cluster-api-provider-metal3 v1.13.2
 * `config/crd/bases/`; v1beta1 is deprecated), CAPZ v1.26.0's one version
 * v1beta1 (kubernetes-sigs/cluster-api-provider-azure v1.26.0
 * `config/crd/bases/`) and CAPA v2.11.1's storage version v1beta2
 * (kubernetes-sigs/cluster-api-provider-aws v2.11.1 `config/crd/bases/`;
 * v1beta1 is still served).
 */
export const CLUSTER_API = {
  machineDeployment: {
    apiVersion: 'cluster.x-k8s.io/v1beta2',
    kind: 'MachineDeployment',
  },
  kubeadmConfigTemplate: {
    apiGroup: 'bootstrap.cluster.x-k8s.io',
    apiVersion: 'bootstrap.cluster.x-k8s.io/v1beta2',
    kind: 'KubeadmConfigTemplate',
  },
  /** The group of every infrastructure provider's machine templates. */
  infrastructureApiGroup: 'infrastructure.cluster.x-k8s.io',
  openStackMachineTemplate: {
    apiVersion: 'infrastructure.cluster.x-k8s.io/v1beta1',
    kind: 'OpenStackMachineTemplate',
  },
  vSphereMachineTemplate: {
    apiVersion: 'infrastructure.cluster.x-k8s.io/v1beta2',
    kind: 'VSphereMachineTemplate',
  },
  metal3MachineTemplate: {
    apiVersion: 'infrastructure.cluster.x-k8s.io/v1beta2',
    kind: 'Metal3MachineTemplate',
  },
  azureMachineTemplate: {
    apiVersion: 'infrastructure.cluster.x-k8s.io/v1beta1',
    kind: 'AzureMachineTemplate',
  },
  awsMachineTemplate: {
    apiVersion: 'infrastructure.cluster.x-k8s.io/v1beta2',
    kind: 'AWSMachineTemplate',
  },
  /** Label Cluster API selects a cluster's Machines by. */
  clusterNameLabel: 'cluster.x-k8s.io/cluster-name',
  /** Label Cluster API gives a MachineDeployment's Machines. */
  deploymentNameLabel: 'cluster.x-k8s.io/deployment-name',
} as const;

/**
 * The kinds of a Cluster API pool's machine templates: a pool file holds
 * them beside its MachineDeployment, and they go with it.
 *
 * @public
 */
export const CLUSTER_API_TEMPLATE_KINDS: readonly string[] = [
  CLUSTER_API.kubeadmConfigTemplate.kind,
  CLUSTER_API.openStackMachineTemplate.kind,
  CLUSTER_API.vSphereMachineTemplate.kind,
  CLUSTER_API.metal3MachineTemplate.kind,
  CLUSTER_API.azureMachineTemplate.kind,
  CLUSTER_API.awsMachineTemplate.kind,
];
