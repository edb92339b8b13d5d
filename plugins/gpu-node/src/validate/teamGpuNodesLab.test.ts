/**
 * `validate` on the static lab whose team wrote its own NFD rules
 * (`test/fixtures/static-nfd-repo`, origins in its README), before any
 * request: no pool of the product's, only the team's GPU servers its
 * NodeFeatureRule labels. A GPU Deployment that selects no node runs on
 * those servers (kube-scheduler puts it on any node with allocatable
 * `nvidia.com/gpu`): no finding says it is unserved.
 */
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { resolveClusterProfile } from '@gpu-gitops/plugin-gpu-common';
import { checkoutShape } from '../changes/shapes/__testUtils__/shapeRound';
import { validateGitOpsTreeReport } from './validateGitOpsTree';

jest.setTimeout(120_000);

const anywhere = `apiVersion: apps/v1
kind: Deployment
metadata:
  name: notebook
spec:
  selector:
    matchLabels: { app: notebook }
  template:
    metadata:
      labels: { app: notebook }
    spec:
      containers:
        - name: notebook
          image: quay.io/jupyter/pytorch-notebook:cuda12-2024-10-07
          resources:
            limits:
              nvidia.com/gpu: 1
`;

describe('validate on a static lab of the team’s own GPU servers', () => {
  let dir: string;

  beforeAll(async () => {
    dir = (await checkoutShape('static-nfd-repo', 'gpu-validate-lab-')).root;
    await fs.rm(path.join(dir, 'README.md'));
    await fs.mkdir(path.join(dir, 'apps/ml/notebook'), { recursive: true });
    await fs.writeFile(
      path.join(dir, 'apps/ml/notebook/deployment.yaml'),
      anywhere,
    );
    await fs.writeFile(
      path.join(dir, 'apps/ml/notebook/kustomization.yaml'),
      'apiVersion: kustomize.config.k8s.io/v1beta1\nkind: Kustomization\nnamespace: ml\nresources:\n  - deployment.yaml\n',
    );
  });
  afterAll(() => fs.rm(dir, { recursive: true, force: true }));

  it.each([
    [
      'with the cluster profile',
      { cluster: resolveClusterProfile({ name: 'lab', provider: 'static' }) },
    ],
    ['without it', {}],
  ])(
    'reports no unserved GPU for a Deployment that selects no node, %s, and says where it lands',
    async (_how, options) => {
      const report = await validateGitOpsTreeReport(dir, options);
      expect(report.findings).toEqual([]);
      expect(report.notes).toEqual(
        expect.arrayContaining([
          "Deployment/notebook selects no node: its pods may land on the GPU nodes the team's NodeFeatureRule gpu-class/gpu-class a100, gpu-class/gpu-class t4 labels; no pool in the repository describes them, so what they advertise and their taints were not checked",
        ]),
      );
    },
  );
});
