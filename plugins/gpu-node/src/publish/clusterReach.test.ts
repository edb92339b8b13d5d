import { promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { isGpuInputError } from '@gpu-gitops/plugin-gpu-common';
import { BareRemote, createBareRemote } from '../git/__testUtils__/bareRemote';
import { FLUX_GPU_OPERATOR_WITHOUT_MIG_MANAGER } from '../changes/bootstrap/__fixtures__/gpuStackShapes';
import { publishGpuRequest } from './publishGpuRequest';
import {
  catalog,
  cluster,
  gpuRequest,
  seedFiles,
} from './__testUtils__/fixtures';

// A hang guard: each publish clones, checks out and plans on a loaded CI machine.
jest.setTimeout(120_000);

const FLUX_INFRASTRUCTURE = `apiVersion: kustomize.toolkit.fluxcd.io/v1
kind: Kustomization
metadata:
  name: infrastructure
  namespace: flux-system
spec:
  interval: 10m
  path: ./infrastructure/controllers
  prune: true
  sourceRef: { kind: GitRepository, name: flux-system }
`;

/** An umbrella chart of the repository installing the GPU Operator with its MIG manager off. */
const UMBRELLA_CHART = {
  'Chart.yaml': `apiVersion: v2
name: gpu-stack
version: 0.1.0
dependencies:
  - name: gpu-operator
    version: v25.10.1
    repository: https://helm.ngc.nvidia.com/nvidia
`,
  'values.yaml': `gpu-operator:
  driver: { enabled: false }
  migManager:
    enabled: false
  mig: { strategy: single }
`,
};

const chartFolder = (dir: string) =>
  Object.fromEntries(
    Object.entries(UMBRELLA_CHART).map(([name, text]) => [
      `${dir}/${name}`,
      text,
    ]),
  );

const migRequest = () =>
  gpuRequest('trainer', {
    model: 'a100-40gb',
    sharing: 'mig',
    replicas: 2,
    vramGiB: 9,
  });

describe('a request on a new workload reads what its cluster applies from folders of no cluster', () => {
  let remote: BareRemote | undefined;
  let cacheDir: string;

  beforeEach(async () => {
    cacheDir = await fs.mkdtemp(path.join(os.tmpdir(), 'gpu-gitops-reach-'));
  });
  afterEach(async () => {
    await remote?.cleanup();
    await fs.rm(cacheDir, { recursive: true, force: true });
  });

  async function refusal(files: Record<string, string>) {
    remote = await createBareRemote({ ...seedFiles, ...files });
    const error = await publishGpuRequest({
      request: migRequest(),
      cluster,
      catalog,
      repoUrl: remote.url,
      cacheDir,
      author: { name: 'GPU Bot', email: 'gpu-bot@example.com' },
      logger: { info: () => {}, warn: () => {} },
    }).then(
      () => undefined,
      (e: unknown) => e,
    );
    if (!isGpuInputError(error)) throw error ?? new Error('not refused');
    expect(await remote.branchSha('gpu/ml-trainer')).toBeUndefined();
    return error.issues[0];
  }

  it('the GPU Operator a Flux Kustomization of the cluster applies from `infrastructure/` (its MIG manager off) refuses a MIG request, naming its file', async () => {
    const file = 'infrastructure/controllers/gpu-operator.yaml';
    const issue = await refusal({
      'clusters/prod/infrastructure.yaml': FLUX_INFRASTRUCTURE,
      [file]: FLUX_GPU_OPERATOR_WITHOUT_MIG_MANAGER,
    });
    expect(issue.rule).toBe('mig-manager-disabled');
    expect(issue.message).toContain(`in \`${file}\``);
  });

  it('so does one a kustomization of the cluster builds from, two folders down the references', async () => {
    const file = 'infrastructure/gpu-operator/release.yaml';
    const issue = await refusal({
      'clusters/prod/kustomization.yaml':
        'resources:\n  - argocd-app.yaml\n  - ../../infrastructure/base\n',
      'infrastructure/base/kustomization.yaml':
        'resources:\n  - ../gpu-operator/release.yaml\n',
      [file]: FLUX_GPU_OPERATOR_WITHOUT_MIG_MANAGER,
    });
    expect(issue.rule).toBe('mig-manager-disabled');
    expect(issue.message).toContain(`in \`${file}\``);
  });

  it('so does a chart folder of no cluster that an Argo CD Application of the cluster renders (an umbrella chart, its values.yaml)', async () => {
    const issue = await refusal({
      'clusters/prod/apps/gpu-stack.yaml': `apiVersion: argoproj.io/v1alpha1
kind: Application
metadata: { name: gpu-stack, namespace: argocd }
spec:
  project: default
  source:
    repoURL: https://github.com/acme/gitops.git
    targetRevision: main
    path: platform/charts/gpu-stack
  destination: { server: https://kubernetes.default.svc, namespace: gpu-operator }
`,
      ...chartFolder('platform/charts/gpu-stack'),
    });
    expect(issue.rule).toBe('mig-manager-disabled');
    expect(issue.message).toContain('platform/charts/gpu-stack');
  });

  it('so does a chart folder a Flux HelmRelease of the cluster installs from its GitRepository', async () => {
    const issue = await refusal({
      'clusters/prod/gpu-stack.yaml': `apiVersion: helm.toolkit.fluxcd.io/v2
kind: HelmRelease
metadata: { name: gpu-stack, namespace: gpu-operator }
spec:
  interval: 1h
  chart:
    spec:
      chart: ./charts/gpu-stack
      sourceRef: { kind: GitRepository, name: flux-system, namespace: flux-system }
`,
      ...chartFolder('charts/gpu-stack'),
    });
    expect(issue.rule).toBe('mig-manager-disabled');
    expect(issue.message).toContain('charts/gpu-stack');
  });

  it('so does a chart folder a kustomize helmCharts entry of the cluster inflates from its chartHome', async () => {
    const issue = await refusal({
      'clusters/prod/kustomization.yaml': `resources:
  - argocd-app.yaml
helmGlobals:
  chartHome: ../../charts
helmCharts:
  - name: gpu-stack
    releaseName: gpu-stack
    namespace: gpu-operator
`,
      ...chartFolder('charts/gpu-stack'),
    });
    expect(issue.rule).toBe('mig-manager-disabled');
    expect(issue.message).toContain('charts/gpu-stack');
  });

  it('so does a folder an Argo CD ApplicationSet of the cluster generates an Application for (a git directories generator), its kustomization inflating the GPU Operator', async () => {
    const file = 'platform/addons/gpu-operator/kustomization.yaml';
    const issue = await refusal({
      'clusters/prod/addons.yaml': `apiVersion: argoproj.io/v1alpha1
kind: ApplicationSet
metadata: { name: prod-addons, namespace: argocd }
spec:
  generators:
    - git:
        repoURL: https://github.com/acme/gitops.git
        revision: main
        directories:
          - path: platform/addons/*
  template:
    metadata: { name: 'prod-{{path.basename}}' }
    spec:
      project: default
      source:
        repoURL: https://github.com/acme/gitops.git
        targetRevision: main
        path: '{{path}}'
      destination: { server: https://kubernetes.default.svc, namespace: '{{path.basename}}' }
`,
      [file]: `helmCharts:
  - name: gpu-operator
    repo: https://helm.ngc.nvidia.com/nvidia
    version: v25.10.1
    releaseName: gpu-operator
    namespace: gpu-operator
    valuesInline:
      driver: { enabled: false }
      migManager: { enabled: false }
      mig: { strategy: single }
`,
    });
    expect(issue.rule).toBe('mig-manager-disabled');
    expect(issue.message).toContain(file);
  });
});
