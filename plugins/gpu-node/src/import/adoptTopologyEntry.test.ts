/**
 * Which GPU entries of a ClusterClass topology the import adopts: the one
 * whose worker class's bootstrap template registers its nodes with the
 * product's pool label; not one that carries the label only in its
 * `metadata.labels`, which Cluster API puts on the Machines, never on the
 * Nodes (`test/fixtures/capo-topology-adopted-repo`, its entry's
 * annotations taken off: the team's repository before the import).
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { parseAllDocuments } from 'yaml';
import { seedOpenStackCatalog } from '@gpu-gitops/plugin-gpu-common/src/providers/__testUtils__/openStackFlavors';
import { shapeFixture } from '../changes/shapes/__testUtils__/shapeRound';
import type { ParsedDocument } from '../repo/yamlObjects';
import { topologyGpuWorkers } from './adoptTopologyEntry';

const folder = path.join(
  shapeFixture('capo-topology-adopted-repo'),
  'clusters/ml-os',
);
const read = (file: string) => readFileSync(path.join(folder, file), 'utf8');

/** The Cluster before the import: its GPU entry without annotations. */
const clusterText = read('cluster.yaml').replace(
  /\n {8}metadata:\n {10}annotations:\n( {12}.*\n)+/,
  '\n',
);

function documents(cluster: string, clusterClass: string): ParsedDocument[] {
  return [
    ['clusters/ml-os/cluster.yaml', cluster],
    ['clusters/ml-os/clusterclass.yaml', clusterClass],
  ].flatMap(([file, text]) =>
    parseAllDocuments(text).map((d, index) => ({
      path: file,
      index,
      value: d.toJS(),
    })),
  );
}

const configs = { devicePluginConfigs: {}, migConfigs: {} };

describe('topologyGpuWorkers', () => {
  it('adopts the GPU entry whose class’s bootstrap template registers its nodes with the pool label, its GPUs as floor', () => {
    expect(clusterText).not.toContain('gpu.backstage.io/requests');
    const { adoptions, findings } = topologyGpuWorkers(
      documents(clusterText, read('clusterclass.yaml')),
      configs,
      seedOpenStackCatalog,
      'gpu.backstage.io',
    );
    expect(findings).toEqual([]);
    expect(
      adoptions.map(a => [
        a.name,
        a.path,
        a.topologyCluster,
        a.machine,
        a.replicas,
        a.pool.gpuModel,
        a.pool.limitFloor,
      ]),
    ).toEqual([
      [
        'gpu-t4',
        'clusters/ml-os/cluster.yaml',
        'ml-os',
        'g2.5xlarge',
        2,
        't4',
        2,
      ],
    ]);
  });

  it('leaves an entry whose pool label is only in its metadata.labels, saying it never reaches the Nodes', () => {
    const unlabelledClass = read('clusterclass.yaml').replace(
      '          - name: node-labels\n            value: gpu.backstage.io/pool=gpu-t4\n',
      '',
    );
    const labelledEntry = clusterText.replace(
      '        name: gpu-t4\n        replicas: 2\n',
      '        name: gpu-t4\n        replicas: 2\n        metadata:\n          labels:\n            gpu.backstage.io/pool: gpu-t4\n',
    );
    const { adoptions, findings } = topologyGpuWorkers(
      documents(labelledEntry, unlabelledClass),
      configs,
      seedOpenStackCatalog,
      'gpu.backstage.io',
    );
    expect(adoptions).toEqual([]);
    expect(findings.map(f => [f.kind, f.path, f.object])).toEqual([
      ['note', 'clusters/ml-os/cluster.yaml', 'Cluster "ml-os"'],
    ]);
    expect(findings[0].message).toContain(
      "the entry `gpu-t4` of `spec.topology.workers.machineDeployments` (g2.5xlarge: 1 × t4 per node); its nodes do not carry gpu.backstage.io/pool=gpu-t4, the label the product's pods select",
    );
    expect(findings[0].message).toContain(
      "the entry's `metadata.labels` gpu.backstage.io/pool reaches its Machines, not its Nodes",
    );
  });
});
