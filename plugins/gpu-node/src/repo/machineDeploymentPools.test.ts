import {
  machineDeploymentAsNodePool,
  machineTypeOf,
} from './machineDeploymentPools';

/** A machine template as the product writes one (or, without `labels`, by hand). */
function template(
  kind: string,
  spec: Record<string, unknown>,
  labels?: Record<string, string>,
) {
  return {
    apiVersion:
      kind === 'OpenStackMachineTemplate'
        ? 'infrastructure.cluster.x-k8s.io/v1beta1'
        : 'infrastructure.cluster.x-k8s.io/v1beta2',
    kind,
    metadata: { name: `gpu-t4-${kind.toLowerCase()}`, namespace: 'capi' },
    spec: { template: { ...(labels ? { metadata: { labels } } : {}), spec } },
  };
}

const openStack = template('OpenStackMachineTemplate', {
  flavor: 'g2.5xlarge',
  image: { filter: { name: 'ubuntu' } },
});
const vSphere = template(
  'VSphereMachineTemplate',
  {
    template: 'ubuntu',
    numCPUs: 16,
    memoryMiB: 98304,
    pciDevices: [{ deviceId: 7864, vendorId: 4318 }],
  },
  { 'gpu.backstage.io/machine': 'vm-t4x2' },
);
const metal3 = template(
  'Metal3MachineTemplate',
  {
    hostSelector: { matchLabels: { 'example.com/host-class': 'bm-t4x4' } },
    image: { url: 'http://images/u.img', checksum: 'abc' },
  },
  // Readers match our labels by suffix: another label domain reads the same.
  { 'gpu.example.com/machine': 'bm-t4x4' },
);

describe('machineTypeOf', () => {
  it("reads an OpenStack template's flavor and the machine label of vSphere and Metal3 templates", () => {
    expect(machineTypeOf(openStack)).toBe('g2.5xlarge');
    expect(machineTypeOf(vSphere)).toBe('vm-t4x2');
    expect(machineTypeOf(metal3)).toBe('bm-t4x4');
  });

  it("reads an Azure template's VM size and an AWS template's instance type, as the providers' GPU flavors write them", () => {
    // kubernetes-sigs/cluster-api-provider-azure v1.26.0
    // templates/flavors/nvidia-gpu/machine-deployment.yaml (variables set).
    const azure = template('AzureMachineTemplate', {
      vmSize: 'Standard_NC4as_T4_v3',
      osDisk: {
        osType: 'Linux',
        diskSizeGB: 128,
        managedDisk: { storageAccountType: 'Premium_LRS' },
      },
      sshPublicKey: '',
    });
    // kubernetes-sigs/cluster-api-provider-aws v2.11.1
    // test/e2e/data/infrastructure-aws/withoutclusterclass/kustomize_sources/gpu/patches/gpu-instance-type.yaml.
    const aws = template('AWSMachineTemplate', {
      instanceType: 'g4dn.xlarge',
      rootVolume: { size: 100, type: 'gp2' },
    });
    expect(machineTypeOf(azure)).toBe('Standard_NC4as_T4_v3');
    expect(machineTypeOf(aws)).toBe('g4dn.xlarge');
  });

  it('knows no machine of a template written by hand without the label', () => {
    const handWritten = template('VSphereMachineTemplate', {
      template: 'ubuntu',
      numCPUs: 8,
    });
    expect(machineTypeOf(handWritten)).toBeUndefined();
    // A label of another product's domain is not ours.
    expect(
      machineTypeOf(
        template(
          'Metal3MachineTemplate',
          {},
          { 'node.kubernetes.io/machine': 'x' },
        ),
      ),
    ).toBeUndefined();
  });
});

describe('machineDeploymentAsNodePool', () => {
  it('takes the machine of the referenced template as the one instance type', () => {
    const deployment = {
      apiVersion: 'cluster.x-k8s.io/v1beta2',
      kind: 'MachineDeployment',
      metadata: { name: 'gpu-t4', namespace: 'capi' },
      spec: {
        template: {
          spec: {
            infrastructureRef: {
              apiGroup: 'infrastructure.cluster.x-k8s.io',
              kind: 'VSphereMachineTemplate',
              name: vSphere.metadata.name,
            },
          },
        },
      },
    };
    const asNodePool = machineDeploymentAsNodePool(deployment, [
      openStack,
      vSphere,
      metal3,
    ]) as any;
    expect(asNodePool.spec.template.spec.requirements).toEqual([
      {
        key: 'node.kubernetes.io/instance-type',
        operator: 'In',
        values: ['vm-t4x2'],
      },
      {
        key: 'karpenter.sh/capacity-type',
        operator: 'In',
        values: ['on-demand'],
      },
    ]);
  });
});

describe('the labels a MachineDeployment’s nodes carry', () => {
  const bootstrap = {
    apiVersion: 'bootstrap.cluster.x-k8s.io/v1beta2',
    kind: 'KubeadmConfigTemplate',
    metadata: { name: 'gpu-bootstrap' },
    spec: {
      template: {
        spec: {
          joinConfiguration: {
            nodeRegistration: {
              kubeletExtraArgs: [
                { name: 'node-labels', value: 'gpu.backstage.io/pool=md-gpu' },
              ],
            },
          },
        },
      },
    },
  };
  // A topology entry's `metadata.labels`, as the topology controller puts them on its Machines.
  const deployment = {
    kind: 'MachineDeployment',
    metadata: { name: 'md-gpu' },
    spec: {
      template: {
        metadata: {
          labels: {
            'node.cluster.x-k8s.io/gpu': 'a100',
            'gpu.node.cluster.x-k8s.io/pool': 'md-gpu',
            'node-role.kubernetes.io/gpu': '',
            'gpu.backstage.io/sharing': 'exclusive',
            team: 'ml',
          },
        },
        spec: {
          bootstrap: {
            configRef: { kind: 'KubeadmConfigTemplate', name: 'gpu-bootstrap' },
          },
        },
      },
    },
  };

  it('are kubelet’s registration labels and only the Machine labels Cluster API copies to Nodes', () => {
    expect(
      machineDeploymentAsNodePool(deployment, [bootstrap]).spec.template
        .metadata.labels,
    ).toEqual({
      'gpu.backstage.io/pool': 'md-gpu',
      'node.cluster.x-k8s.io/gpu': 'a100',
      'gpu.node.cluster.x-k8s.io/pool': 'md-gpu',
      'node-role.kubernetes.io/gpu': '',
    });
  });
});
