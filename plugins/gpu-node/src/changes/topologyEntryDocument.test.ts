import { findPoolDocument } from './poolDocumentLocator';
import { YamlFile } from './yamlFile';

const CLUSTER = `apiVersion: cluster.x-k8s.io/v1beta2
kind: Cluster
metadata:
  name: ml-os
spec:
  topology:
    classRef:
      name: dev-test
    workers:
      machineDeployments:
      - class: default-worker
        name: md-0
        replicas: 2
      - class: gpu-t4 # the team's GPU class
        name: gpu-t4
        replicas: 2
        metadata:
          annotations:
            gpu.backstage.io/requests: ml/embedder=2
`;

describe('a topology entry edited as its MachineDeployment', () => {
  it('is found by its name and takes a ledger and replicas in place, every other line as written', () => {
    const file = YamlFile.parse('clusters/ml-os/cluster.yaml', CLUSTER);
    const doc = findPoolDocument(file, 'gpu-t4', ['MachineDeployment'])!;
    expect(doc.get('kind')).toBe('MachineDeployment');
    expect(doc.toJS()).toEqual({
      kind: 'MachineDeployment',
      metadata: {
        name: 'gpu-t4',
        annotations: { 'gpu.backstage.io/requests': 'ml/embedder=2' },
      },
      spec: { replicas: 2 },
    });
    doc.setIn(['spec', 'replicas'], 4);
    doc.setIn(
      ['metadata', 'annotations', 'gpu.backstage.io/requests'],
      'ml/embedder=2, ml/chat=2',
    );
    file.modified = true;
    expect(file.newContent()).toBe(
      CLUSTER.replace(
        '        name: gpu-t4\n        replicas: 2\n',
        '        name: gpu-t4\n        replicas: 4\n',
      ).replace('ml/embedder=2\n', 'ml/embedder=2, ml/chat=2\n'),
    );
  });

  it('has no fields a topology entry does not hold, and finds no entry another Cluster or name holds', () => {
    const file = YamlFile.parse('clusters/ml-os/cluster.yaml', CLUSTER);
    const doc = findPoolDocument(file, 'md-0', ['MachineDeployment'])!;
    expect(
      doc.getIn(['spec', 'template', 'spec', 'bootstrap']),
    ).toBeUndefined();
    expect(() => doc.setIn(['spec', 'template'], {})).toThrow(
      'a topology entry has no field spec.template',
    );
    expect(
      findPoolDocument(file, 'md-1', ['MachineDeployment']),
    ).toBeUndefined();
    expect(findPoolDocument(file, 'md-0', ['NodePool'])).toBeUndefined();
  });
});
