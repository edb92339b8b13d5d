/**
 * A Cluster API cluster with a managed topology declares no MachineDeployment:
 * its GPU workers are a `spec.topology.workers.machineDeployments` entry of a
 * worker class whose OpenStackMachineTemplate (CAPO v1beta2) names a GPU
 * flavor by `flavor.filter.name`. `validate` lands workloads on those nodes
 * as on a written MachineDeployment's (`test/fixtures/capo-clusterclass-repo`:
 * CAPO's own `dev-test` ClusterClass and topology Cluster, the seed's T4
 * flavor as the workers' flavor).
 */
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { seedOpenStackCatalog } from '@gpu-gitops/plugin-gpu-common/src/providers/__testUtils__/openStackFlavors';
import { checkoutShape } from '../changes/shapes/__testUtils__/shapeRound';
import type { FsRepoTree } from '../repo/tree';
import { validateGitOpsTree } from './validateGitOpsTree';

jest.setTimeout(120_000);

describe('a ClusterClass cluster whose topology workers run a GPU flavor', () => {
  let tree: FsRepoTree;

  beforeAll(async () => {
    tree = await checkoutShape('capo-clusterclass-repo', 'gpu-validate-cc-');
  });
  afterAll(() => fs.rm(tree.root, { recursive: true, force: true }));

  it('finds nothing wrong in the untouched repository: the team’s one-GPU Deployment is served by the topology’s md-0', async () => {
    expect(
      await validateGitOpsTree(tree.root, { catalog: seedOpenStackCatalog }),
    ).toEqual([]);
  });

  it('names the topology workers when a selector rules their nodes out', async () => {
    const file = path.join(tree.root, 'apps/ml/embedder/deployment.yaml');
    const text = await fs.readFile(file, 'utf8');
    await fs.writeFile(
      file,
      text.replace(
        '    spec:\n      containers:',
        '    spec:\n      nodeSelector:\n        pool: nowhere\n      containers:',
      ),
    );
    const findings = await validateGitOpsTree(tree.root, {
      catalog: seedOpenStackCatalog,
    });
    await fs.writeFile(file, text);
    expect(findings.map(f => [f.object, f.rule])).toEqual([
      ['Deployment/embedder', 'workload-unschedulable'],
    ]);
    expect(findings[0].message).toContain(
      'nodes of MachineDeployment md-0 never carry label pool',
    );
  });
});
