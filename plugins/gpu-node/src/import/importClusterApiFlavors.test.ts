/**
 * `import` on the Cluster API management repositories made from CAPZ's and
 * CAPA's GPU flavors (`test/fixtures/capz-gpu-repo`, `capa-gpu-repo`) whose
 * GPU MachineDeployment it cannot manage (its KubeadmConfigTemplate lives
 * elsewhere, so its nodes could not get the pool label): md-0 is reported
 * with its machine and why it was left, not silently passed over, and
 * nothing is written. Its adoption: `adoptMachineDeployment.test.ts`.
 */
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { parseAllDocuments } from 'yaml';
import {
  builtinCatalog,
  resolveClusterProfile,
} from '@gpu-gitops/plugin-gpu-common';
import { checkoutShape } from '../changes/shapes/__testUtils__/shapeRound';
import { buildImportChange } from './buildImportChange';

jest.setTimeout(120_000);

describe.each([
  ['capz-gpu-repo', 'ml-azure', { azure: {} }, 'Standard_NC4as_T4_v3'],
  [
    'capa-gpu-repo',
    'ml-aws',
    {
      aws: { iamInstanceProfile: 'nodes.cluster-api-provider-aws.sigs.k8s.io' },
    },
    'g4dn.xlarge',
  ],
] as const)('import on %s', (fixture, name, infrastructure, machine) => {
  it('reports md-0 left, with its machine and why, when its KubeadmConfigTemplate is not in the folder; writes nothing', async () => {
    const tree = await checkoutShape(fixture, 'gpu-import-capi-');
    try {
      const file = `clusters/${name}/cluster.yaml`;
      const documents = parseAllDocuments((await tree.readFile(file))!);
      await fs.writeFile(
        path.join(tree.root, file),
        documents
          .filter(d => d.get('kind') !== 'KubeadmConfigTemplate')
          .map(d => d.toString())
          .join(''),
      );
      const cluster = resolveClusterProfile({
        name,
        provider: 'cluster-api',
        migStrategy: 'single',
        clusterApi: {
          clusterName: name,
          namespace: 'default',
          infrastructure: Object.keys(infrastructure)[0],
          kubernetesVersion: 'v1.33.1',
          autoscaler: false,
          ...infrastructure,
        },
      });
      const change = await buildImportChange({
        tree,
        dir: tree.root,
        cluster,
        catalog: builtinCatalog,
        owner: 'group:default/ml-platform',
      });
      expect(change.changeSet.changes).toEqual([]);
      expect(change.findings.map(f => [f.kind, f.path, f.object])).toEqual([
        [
          'note',
          `clusters/${name}/cluster.yaml`,
          `MachineDeployment "${name}-md-0"`,
        ],
      ]);
      expect(change.findings[0].message).toContain(
        `GPU workers written by hand, not adopted: ${machine}: 1 × t4 per node; its KubeadmConfigTemplate is not in the cluster’s folder`,
      );
    } finally {
      await fs.rm(tree.root, { recursive: true, force: true });
    }
  });
});
