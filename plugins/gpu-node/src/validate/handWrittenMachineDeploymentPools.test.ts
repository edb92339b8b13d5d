/**
 * A Cluster API flavor's own GPU workers (a MachineDeployment written by
 * hand, no annotation of ours) are a pool `validate` lands workloads on:
 * its machine template's vmSize / instanceType is a catalog GPU machine.
 * The CAPZ and CAPA GPU flavors' `md-0` (one T4 each), with a team's
 * workloads beside them.
 */
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { checkoutShape } from '../changes/shapes/__testUtils__/shapeRound';
import type { FsRepoTree } from '../repo/tree';
import { validateGitOpsTree } from './validateGitOpsTree';

jest.setTimeout(120_000);

const deployment = (name: string, nodeSelector = '') => `apiVersion: apps/v1
kind: Deployment
metadata:
  name: ${name}
  namespace: ml
spec:
  selector:
    matchLabels: {app: ${name}}
  template:
    metadata:
      labels: {app: ${name}}
    spec:
${nodeSelector}      containers:
        - name: main
          image: ghcr.io/acme/${name}:1.0
          resources:
            limits:
              nvidia.com/gpu: 1
`;

describe.each([
  ['capz-gpu-repo', 'ml-azure-md-0'],
  ['capa-gpu-repo', 'ml-aws-md-0'],
])('%s: its hand-written GPU MachineDeployment', (fixture, md0) => {
  let tree: FsRepoTree;

  beforeAll(async () => {
    tree = await checkoutShape(fixture, 'gpu-validate-md0-');
    const apps = path.join(tree.root, 'apps/ml');
    await fs.mkdir(apps, { recursive: true });
    await fs.writeFile(path.join(apps, 'fits.yaml'), deployment('fits'));
    await fs.writeFile(
      path.join(apps, 'elsewhere.yaml'),
      deployment('elsewhere', '      nodeSelector:\n        pool: nowhere\n'),
    );
    await fs.writeFile(
      path.join(apps, 'kustomization.yaml'),
      'resources:\n  - fits.yaml\n  - elsewhere.yaml\n',
    );
  });
  afterAll(() => fs.rm(tree.root, { recursive: true, force: true }));

  it('serves a one-GPU workload (no unserved-resource), and a selector its nodes never satisfy is named', async () => {
    const findings = await validateGitOpsTree(tree.root);
    expect(findings.map(f => [f.object, f.rule])).toEqual([
      ['Deployment/elsewhere', 'workload-unschedulable'],
    ]);
    expect(findings[0].message).toContain(
      `nodes of MachineDeployment ${md0} never carry label pool`,
    );
  });
});
