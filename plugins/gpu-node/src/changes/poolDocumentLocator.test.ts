import { findPoolDocument } from './poolDocumentLocator';
import { YamlFile } from './yamlFile';

const TOPOLOGY_CLUSTER = `apiVersion: cluster.x-k8s.io/v1beta2
kind: Cluster
metadata:
  name: ml-os
spec:
  topology:
    workers:
      machineDeployments:
      - class: gpu-t4
        name: gpu-t4
        replicas: 2
`;

const MACHINE_DEPLOYMENT = `apiVersion: cluster.x-k8s.io/v1beta2
kind: MachineDeployment
metadata:
  name: gpu-a10
spec:
  replicas: 1
`;

const NODE_POOL = `apiVersion: karpenter.sh/v1
kind: NodePool
metadata:
  name: gpu-l4
`;

const file = (...docs: string[]) =>
  YamlFile.parse('clusters/ml-os/pools.yaml', docs.join('---\n'));

describe('findPoolDocument', () => {
  it("finds a pool's own object, whatever its pool kind", () => {
    const pools = file(NODE_POOL, MACHINE_DEPLOYMENT);
    expect(findPoolDocument(pools, 'gpu-l4')?.get('kind')).toBe('NodePool');
    expect(findPoolDocument(pools, 'gpu-a10')?.toJS()).toMatchObject({
      kind: 'MachineDeployment',
      spec: { replicas: 1 },
    });
    expect(findPoolDocument(pools, 'gpu-t4')).toBeUndefined();
  });

  it('finds a Cluster API pool on its topology entry, as the MachineDeployment it becomes', () => {
    const doc = findPoolDocument(file(TOPOLOGY_CLUSTER), 'gpu-t4');
    expect(doc?.toJS()).toEqual({
      kind: 'MachineDeployment',
      metadata: { name: 'gpu-t4' },
      spec: { replicas: 2 },
    });
  });

  it('looks only among the kinds it is given: a topology entry is a MachineDeployment', () => {
    const cluster = file(TOPOLOGY_CLUSTER, NODE_POOL);
    expect(findPoolDocument(cluster, 'gpu-t4', ['NodePool'])).toBeUndefined();
    expect(
      findPoolDocument(cluster, 'gpu-t4', ['MachineDeployment'])?.get('kind'),
    ).toBe('MachineDeployment');
    expect(
      findPoolDocument(cluster, 'gpu-l4', ['MachineDeployment']),
    ).toBeUndefined();
  });

  it('prefers a MachineDeployment of its own over a topology entry of the same name', () => {
    const both = file(
      TOPOLOGY_CLUSTER,
      MACHINE_DEPLOYMENT.replace('gpu-a10', 'gpu-t4'),
    );
    expect(findPoolDocument(both, 'gpu-t4')?.toJS()).toMatchObject({
      apiVersion: 'cluster.x-k8s.io/v1beta2',
      spec: { replicas: 1 },
    });
  });

  it('leaves the YAML editor to plain kind and name: findObject knows no topology', () => {
    expect(
      file(TOPOLOGY_CLUSTER).findObject('MachineDeployment', 'gpu-t4'),
    ).toBeUndefined();
  });
});
