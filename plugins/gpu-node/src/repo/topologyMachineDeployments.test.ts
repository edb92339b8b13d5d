import { parseAllDocuments } from 'yaml';
import { machineTypeOf, templatesOf } from './machineDeploymentPools';
import { topologyMachineDeployments } from './topologyMachineDeployments';

const objects = (text: string) =>
  parseAllDocuments(text).map(d => d.toJS() as unknown);

// Cluster API v1beta1 spellings: `spec.topology.class`, `template.bootstrap.ref`.
const V1BETA1 = objects(`apiVersion: cluster.x-k8s.io/v1beta1
kind: Cluster
metadata: {name: lab, namespace: capi}
spec:
  topology:
    class: quick-start
    version: v1.31.0
    workers:
      machineDeployments:
        - class: gpu
          name: md-gpu
          replicas: 3
          metadata:
            labels: {node.cluster.x-k8s.io/gpu: a100}
        - class: missing
          name: md-x
---
apiVersion: cluster.x-k8s.io/v1beta1
kind: ClusterClass
metadata: {name: quick-start, namespace: capi}
spec:
  workers:
    machineDeployments:
      - class: gpu
        template:
          bootstrap:
            ref: {apiVersion: bootstrap.cluster.x-k8s.io/v1beta1, kind: KubeadmConfigTemplate, name: gpu-bootstrap}
          infrastructure:
            ref: {apiVersion: infrastructure.cluster.x-k8s.io/v1beta1, kind: OpenStackMachineTemplate, name: gpu-machine}
---
apiVersion: infrastructure.cluster.x-k8s.io/v1beta1
kind: OpenStackMachineTemplate
metadata: {name: gpu-machine, namespace: capi}
spec:
  template:
    spec:
      flavor: g4.p2.40g
`);

describe('topologyMachineDeployments', () => {
  it('makes one MachineDeployment per topology entry whose class is known, on its worker class’s templates (v1beta1 spellings)', () => {
    const made = topologyMachineDeployments(V1BETA1);
    expect(made).toEqual([
      {
        apiVersion: 'cluster.x-k8s.io/v1beta2',
        kind: 'MachineDeployment',
        metadata: { name: 'md-gpu', namespace: 'capi' },
        spec: {
          clusterName: 'lab',
          replicas: 3,
          template: {
            metadata: { labels: { 'node.cluster.x-k8s.io/gpu': 'a100' } },
            spec: {
              clusterName: 'lab',
              bootstrap: {
                configRef: {
                  kind: 'KubeadmConfigTemplate',
                  name: 'gpu-bootstrap',
                },
              },
              infrastructureRef: {
                kind: 'OpenStackMachineTemplate',
                name: 'gpu-machine',
              },
            },
          },
        },
      },
    ]);
    expect(machineTypeOf(templatesOf(made[0], V1BETA1).infrastructure)).toBe(
      'g4.p2.40g',
    );
  });

  it('makes none for a Cluster without a topology', () => {
    expect(
      topologyMachineDeployments(
        objects('kind: Cluster\nmetadata: {name: a}\nspec: {}\n'),
      ),
    ).toEqual([]);
  });
});

describe('machineTypeOf', () => {
  it('reads a CAPO v1beta2 flavor given by filter', () => {
    expect(
      machineTypeOf({
        kind: 'OpenStackMachineTemplate',
        spec: {
          template: { spec: { flavor: { filter: { name: 'g2.5xlarge' } } } },
        },
      }),
    ).toBe('g2.5xlarge');
  });
});
