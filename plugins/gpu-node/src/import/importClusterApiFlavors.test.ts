/**
 * `import` on the Cluster API management repositories made from CAPZ's and
 * CAPA's GPU flavors (`test/fixtures/capz-gpu-repo`, `capa-gpu-repo`): the
 * flavor's hand-written GPU MachineDeployment is seen and reported with its
 * machine, not silently passed over, and nothing is written.
 */
import { promises as fs } from 'node:fs';
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
  it('reports the hand-written GPU MachineDeployment md-0 with its machine, writes nothing', async () => {
    const tree = await checkoutShape(fixture, 'gpu-import-capi-');
    try {
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
        `GPU workers written by hand (${machine}: 1 × t4 per node), not adopted`,
      );
    } finally {
      await fs.rm(tree.root, { recursive: true, force: true });
    }
  });
});
