/**
 * TEST-ONLY: what every Cluster API pool's objects must be, whatever the
 * infrastructure: a MachineDeployment, its machine template and its
 * KubeadmConfigTemplate, each valid against its vendored CRD, wired to one
 * another, with the pool's labels and taint at kubelet registration and its
 * size as replicas or as the autoscaler's bounds.
 */
import type { GpuCatalog, InstanceType } from '../../catalog/types';
import type { ClusterProfile } from '../../cluster/types';
import { buildManifests } from '../../manifests/buildManifests';
import { validateAgainstCrd } from '../../manifests/__testUtils__/crdSchemas';
import type { KubernetesObject } from '../../manifests/types';
import { plan } from '../../planner/plan';
import { gpuRequest } from '../../planner/__testUtils__/fixtures';
import type { Plan } from '../../planner/types';
import type { SharingMode } from '../../request/types';

/**
 * The requests every infrastructure's test plans: each sharing mode on a T4,
 * MIG and exclusive on an A100 40GB (the MIG-capable GPU of every test catalog).
 */
export const CLUSTER_API_MODE_REQUESTS: Array<
  [string, SharingMode, Record<string, unknown>]
> = [
  ['t4', 'exclusive', { replicas: 2, vramGiB: 12 }],
  ['t4', 'time-slicing', { replicas: 6, vramGiB: 3, slicesPerGpu: 4 }],
  ['t4', 'mps', { replicas: 5, vramGiB: 3 }],
  ['a100-40gb', 'mig', { replicas: 3, vramGiB: 9 }],
  ['a100-40gb', 'exclusive', { replicas: 3, vramGiB: 30 }],
  ['t4', 'dra', { replicas: 2, vramGiB: 8 }],
];

/** A request of `ml-team/llm` planned on `cluster` and its pool's objects rendered. */
export function renderPool(
  cluster: ClusterProfile,
  catalog: GpuCatalog,
  model: string,
  sharing: SharingMode,
  gpu: Record<string, unknown>,
): { thePlan: Plan; objects: KubernetesObject[] } {
  const thePlan = plan(
    gpuRequest({
      model,
      sharing,
      gpusPerReplica: sharing === 'exclusive' ? 1 : undefined,
      ...gpu,
    }),
    catalog,
    cluster,
  );
  const manifests = buildManifests(thePlan, cluster, { catalog });
  return { thePlan, objects: manifests.pool.objects };
}

/** The vendored CRD of each kind a Cluster API pool is made of. */
export const CLUSTER_API_CRD_FILES: Record<string, string> = {
  MachineDeployment: 'capi-v1.14.0_cluster.x-k8s.io_machinedeployments.yaml',
  KubeadmConfigTemplate:
    'capi-v1.14.0_bootstrap.cluster.x-k8s.io_kubeadmconfigtemplates.yaml',
  OpenStackMachineTemplate:
    'capo-v0.14.7_infrastructure.cluster.x-k8s.io_openstackmachinetemplates.yaml',
  VSphereMachineTemplate:
    'capv-v1.16.1_infrastructure.cluster.x-k8s.io_vspheremachinetemplates.yaml',
  Metal3MachineTemplate:
    'capm3-v1.13.2_infrastructure.cluster.x-k8s.io_metal3machinetemplates.yaml',
  AzureMachineTemplate:
    'capz-v1.26.0_infrastructure.cluster.x-k8s.io_azuremachinetemplates.yaml',
  AWSMachineTemplate:
    'capa-v2.11.1_infrastructure.cluster.x-k8s.io_awsmachinetemplates.yaml',
};

export function byKind(objects: KubernetesObject[], kind: string): any {
  const found = objects.filter(o => o.kind === kind);
  expect(found).toHaveLength(1);
  return found[0];
}

/** kubelet's `--node-labels` value as a record. */
export function nodeLabels(bootstrap: any): Record<string, string> {
  const args = bootstrap.spec.template.spec.joinConfiguration.nodeRegistration
    .kubeletExtraArgs as { name: string; value: string }[];
  const value = args.find(a => a.name === 'node-labels')!.value;
  return Object.fromEntries(value.split(',').map(pair => pair.split('=')));
}

/**
 * Checks the parts every infrastructure shares and returns the machine
 * template for the infrastructure's own checks.
 */
export function expectClusterApiPool(
  objects: KubernetesObject[],
  thePlan: Plan,
  cluster: ClusterProfile,
  machineTemplateKind: string,
  machine: InstanceType,
): any {
  expect(objects.map(o => o.kind)).toEqual([
    'MachineDeployment',
    machineTemplateKind,
    'KubeadmConfigTemplate',
  ]);
  for (const object of objects) {
    validateAgainstCrd(object, CLUSTER_API_CRD_FILES[object.kind]);
  }
  const deployment = byKind(objects, 'MachineDeployment');
  const template = byKind(objects, machineTemplateKind);
  const bootstrap = byKind(objects, 'KubeadmConfigTemplate');

  expect(deployment.spec.template.spec.infrastructureRef).toEqual({
    apiGroup: 'infrastructure.cluster.x-k8s.io',
    kind: machineTemplateKind,
    name: template.metadata.name,
  });
  expect(deployment.spec.template.spec.bootstrap.configRef).toEqual({
    apiGroup: 'bootstrap.cluster.x-k8s.io',
    kind: 'KubeadmConfigTemplate',
    name: bootstrap.metadata.name,
  });
  // The selector matches the Machines' labels (else CAPI rejects it).
  expect(deployment.spec.template.metadata.labels).toMatchObject(
    deployment.spec.selector.matchLabels,
  );
  // Templates are the pool's, named by content, in the Cluster's namespace.
  for (const t of [template, bootstrap]) {
    expect(t.metadata.name).toMatch(
      new RegExp(`^${thePlan.pool.name}-[0-9a-f]{8}$`),
    );
    expect(t.metadata.namespace).toBe(cluster.clusterApi!.namespace);
    expect(t.metadata.labels['gpu.backstage.io/pool']).toBe(thePlan.pool.name);
  }

  // Labels and taint reach the nodes through kubelet registration.
  const labels = nodeLabels(bootstrap);
  expect(labels).toEqual(thePlan.pool.labels);
  expect(labels['gpu.backstage.io/pool']).toBe(thePlan.pool.name);
  const sharing = thePlan.sharing.mode;
  if (sharing === 'time-slicing' || sharing === 'mps') {
    expect(labels['nvidia.com/device-plugin.config']).toBe(
      thePlan.sharing.deviceConfigName,
    );
  }
  if (sharing === 'mig') {
    expect(labels['nvidia.com/mig.config']).toBe(thePlan.sharing.migConfigName);
  }
  expect(
    bootstrap.spec.template.spec.joinConfiguration.nodeRegistration.taints,
  ).toEqual([thePlan.pool.taint]);

  // The pool's annotations are the NodePool's.
  expect(deployment.metadata.annotations).toMatchObject({
    'gpu.backstage.io/gpu-model': thePlan.pool.gpuModel,
    'gpu.backstage.io/sharing-mode': sharing,
    'gpu.backstage.io/resource-name': thePlan.resourceName,
    'gpu.backstage.io/requests': expect.stringMatching(/^ml-team\/llm=/),
  });

  if (cluster.clusterApi!.autoscaler) {
    expect(deployment.spec.replicas).toBeUndefined();
    expect(deployment.metadata.annotations).toMatchObject({
      'cluster.x-k8s.io/cluster-api-autoscaler-node-group-min-size': '0',
      'cluster.x-k8s.io/cluster-api-autoscaler-node-group-max-size': String(
        thePlan.nodes.expected,
      ),
      'capacity.cluster-autoscaler.kubernetes.io/cpu': String(machine.vcpu),
      'capacity.cluster-autoscaler.kubernetes.io/memory': `${machine.memoryMiB}Mi`,
      'capacity.cluster-autoscaler.kubernetes.io/gpu-type': 'nvidia.com/gpu',
      'capacity.cluster-autoscaler.kubernetes.io/gpu-count': String(
        thePlan.nodes.slicesPerNode,
      ),
      'capacity.cluster-autoscaler.kubernetes.io/taints': `${thePlan.pool.taint.key}=${thePlan.pool.taint.value}:NoSchedule`,
    });
  } else {
    expect(deployment.spec.replicas).toBe(thePlan.nodes.expected);
    expect(
      Object.keys(deployment.metadata.annotations).filter(k =>
        k.includes('autoscaler'),
      ),
    ).toEqual([]);
  }
  return template;
}
