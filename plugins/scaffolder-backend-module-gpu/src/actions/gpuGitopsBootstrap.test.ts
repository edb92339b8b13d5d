import yaml from 'yaml';
import { createMockActionContext } from '@backstage/plugin-scaffolder-node-test-utils';
import {
  createFixtureGitopsRepo,
  createFixtureGitopsRepoWith,
  FIXTURE_GITOPS_REPO,
  git,
  type FixtureRepo,
} from '../__testUtils__/fixtureGitopsRepo';
import { testServices } from '../__testUtils__/testServices';
import { createGpuGitopsBootstrapAction } from './gpuGitopsBootstrap';
import { examples } from './gpuGitopsBootstrap.examples';
import { outputsOf } from '../__testUtils__/actionOutputs';

// Real git and a real backend under a shared, busy CI machine: a generous ceiling, not a speed goal.
jest.setTimeout(60_000);

describe('gpu:gitops:bootstrap', () => {
  let repo: FixtureRepo;

  beforeEach(async () => {
    repo = await createFixtureGitopsRepo();
  });
  afterEach(async () => {
    await repo.cleanup();
  });

  it('pushes the bootstrap branch for a cluster without GPUs, once', async () => {
    const action = createGpuGitopsBootstrapAction(testServices(repo));
    const ctx = createMockActionContext({
      input: { cluster: 'prod', binPacking: true },
    });
    await action.handler(ctx);
    const out = outputsOf(ctx);
    expect(out.branchName).toBe('gpu/bootstrap-prod');
    expect(out.pullRequestUrl).toBe('/gpu/pull-requests/bootstrap-prod');
    expect(out.changed).toBe(true);
    const files = await repo.files('gpu/bootstrap-prod');
    expect(files).toEqual(
      expect.arrayContaining([
        'clusters/prod/gpu-operator/values.yaml',
        'clusters/prod/gpu-operator/kustomization.yaml',
        'clusters/prod/gpu/kustomization.yaml',
        'clusters/prod/gpu/device-plugin/default.yaml',
        'clusters/prod/gpu/mig/config.yaml',
        'clusters/prod/gpu/nodeclasses/gpu.yaml',
        'clusters/prod/gpu/scheduler/gpu-binpack.yaml',
      ]),
    );
    const values = yaml.parse(
      (await repo.show(
        'gpu/bootstrap-prod',
        'clusters/prod/gpu-operator/values.yaml',
      ))!,
    );
    expect(values.devicePlugin.config.default).toBe('default');
    // The fixture installs no Karpenter: the bootstrap adds its release.
    const karpenter = yaml.parse(
      (await repo.show(
        'gpu/bootstrap-prod',
        'clusters/prod/karpenter-controller/kustomization.yaml',
      ))!,
    );
    expect(karpenter.helmCharts[0]).toMatchObject({
      name: 'karpenter',
      version: '1.14.1',
    });
    const karpenterValues = yaml.parse(
      (await repo.show(
        'gpu/bootstrap-prod',
        'clusters/prod/karpenter-controller/values.yaml',
      ))!,
    );
    expect(karpenterValues.settings.featureGates.nodeOverlay).toBe(true);
    expect(out.body).toContain(
      '\nNotes:\n- No Karpenter release was found in the repository, so this pull request adds one in `clusters/prod/karpenter-controller/`',
    );
    const head = (await repo.refs())['refs/heads/gpu/bootstrap-prod'];

    const again = createMockActionContext({
      input: { cluster: 'prod', binPacking: true },
    });
    await action.handler(again);
    expect((await repo.refs())['refs/heads/gpu/bootstrap-prod']).toBe(head);
  });

  it('in dry-run outputs the diff and pushes nothing', async () => {
    const action = createGpuGitopsBootstrapAction(testServices(repo));
    const ctx = {
      ...createMockActionContext({ input: { cluster: 'dev' } }),
      isDryRun: true,
    };
    await action.handler(ctx);
    const out = outputsOf(ctx);
    expect(out.diff).toContain('+++ b/clusters/dev/gpu-operator/values.yaml');
    expect(out.body).toContain('cluster **dev**');
    expect(Object.keys(await repo.refs())).toEqual(['refs/heads/main']);
  });

  /** A copy of the fixture repository with `files` added, as a bare remote. */
  const fixtureWith = (files: Record<string, string>) =>
    createFixtureGitopsRepoWith(files, FIXTURE_GITOPS_REPO);

  it('leaves a hand-written Argo CD Application of Karpenter byte for byte, and says what to set in it', async () => {
    const application = 'argocd/karpenter.yaml';
    const handWritten = await fixtureWith({
      [application]: [
        'apiVersion: argoproj.io/v1alpha1',
        'kind: Application',
        'metadata:',
        '  name: karpenter-prod',
        '  namespace: argocd',
        'spec:',
        '  project: platform',
        '  source:',
        '    repoURL: public.ecr.aws/karpenter',
        '    chart: karpenter',
        '    targetRevision: 1.14.1',
        '    helm:',
        '      valuesObject:',
        '        settings:',
        '          clusterName: prod-eks',
        '          featureGates:',
        '            nodeOverlay: false',
        '  destination:',
        '    name: prod',
        '    namespace: kube-system',
        '',
      ].join('\n'),
    });
    try {
      const action = createGpuGitopsBootstrapAction(testServices(handWritten));
      const ctx = createMockActionContext({ input: { cluster: 'prod' } });
      await action.handler(ctx);
      const out = outputsOf(ctx);
      expect(out.changed).toBe(true);
      const blob = (ref: string) =>
        git(['rev-parse', `${ref}:${application}`], handWritten.bareDir);
      expect(await blob('gpu/bootstrap-prod')).toBe(await blob('main'));
      expect(out.files).not.toContain(application);
      expect(
        out.files.filter((f: string) => f.includes('karpenter-controller')),
      ).toEqual([]);
      expect(out.body).toContain(
        'Its NodeOverlay gate is off (`settings.featureGates.nodeOverlay` in `spec.source.helm.valuesObject` of Application `argocd/karpenter-prod` in `argocd/karpenter.yaml`). **To do**: set `settings.featureGates.nodeOverlay: true` in `spec.source.helm.valuesObject` of Application `argocd/karpenter-prod` in `argocd/karpenter.yaml`. **The cluster profile disagrees**',
      );
    } finally {
      await handWritten.cleanup();
    }
  });

  it('in dry-run reads a Flux HelmRelease outside the cluster folder and says what to set in it', async () => {
    const release = 'infrastructure/karpenter/helmrelease.yaml';
    const handWritten = await fixtureWith({
      [release]: [
        'apiVersion: helm.toolkit.fluxcd.io/v2',
        'kind: HelmRelease',
        'metadata:',
        '  name: karpenter',
        '  namespace: kube-system',
        'spec:',
        '  chart:',
        '    spec:',
        '      chart: karpenter',
        '      version: 1.14.1',
        '      sourceRef: { kind: HelmRepository, name: karpenter }',
        '',
      ].join('\n'),
    });
    try {
      const action = createGpuGitopsBootstrapAction(testServices(handWritten));
      const ctx = {
        ...createMockActionContext({ input: { cluster: 'prod' } }),
        isDryRun: true,
      };
      await action.handler(ctx);
      const out = outputsOf(ctx);
      expect(out.diff).not.toContain(release);
      expect(out.diff).not.toContain('karpenter-controller');
      expect(out.body).toContain(
        "Karpenter is installed by Flux HelmRelease `kube-system/karpenter` in `infrastructure/karpenter/helmrelease.yaml`, chart version 1.14.1; the bootstrap never edits it. Nothing sets its NodeOverlay gate, and the chart's default is off. **To do**: set `settings.featureGates.nodeOverlay: true` in `spec.values` of HelmRelease `kube-system/karpenter` in `infrastructure/karpenter/helmrelease.yaml`.",
      );
      expect(Object.keys(await handWritten.refs())).toEqual([
        'refs/heads/main',
      ]);
    } finally {
      await handWritten.cleanup();
    }
  });

  it('refuses, pushing nothing, when a file it would write is one it did not write', async () => {
    const values = 'clusters/prod/gpu-operator/values.yaml';
    const handWritten = await fixtureWith({
      [values]: '# ours\ndevicePlugin: { enabled: true }\n',
    });
    try {
      const action = createGpuGitopsBootstrapAction(testServices(handWritten));
      const ctx = createMockActionContext({ input: { cluster: 'prod' } });
      await expect(action.handler(ctx)).rejects.toThrow(
        `${values} exists and the bootstrap did not write it`,
      );
      expect(Object.keys(await handWritten.refs())).toEqual([
        'refs/heads/main',
      ]);
    } finally {
      await handWritten.cleanup();
    }
  });

  it('leaves a GPU Operator release the repository declares byte for byte, writes none, and says what to set in it', async () => {
    const release = 'infrastructure/gpu-operator/helmrelease.yaml';
    const handWritten = await fixtureWith({
      [release]: [
        'apiVersion: helm.toolkit.fluxcd.io/v2',
        'kind: HelmRelease',
        'metadata:',
        '  name: gpu-operator',
        '  namespace: gpu-operator',
        'spec:',
        '  chart:',
        '    spec:',
        '      chart: gpu-operator',
        '      version: v25.10.1',
        '      sourceRef: { kind: HelmRepository, name: nvidia }',
        '  values:',
        '    devicePlugin: { config: { name: nvidia-device-plugin-configs, default: default } }',
        '    migManager: { config: { name: custom-mig-parted-config } }',
        '',
      ].join('\n'),
    });
    try {
      const action = createGpuGitopsBootstrapAction(testServices(handWritten));
      const ctx = createMockActionContext({ input: { cluster: 'prod' } });
      await action.handler(ctx);
      const out = outputsOf(ctx);
      expect(out.changed).toBe(true);
      const blob = (ref: string) =>
        git(['rev-parse', `${ref}:${release}`], handWritten.bareDir);
      expect(await blob('gpu/bootstrap-prod')).toBe(await blob('main'));
      expect(
        out.files.filter((f: string) => f.includes('gpu-operator/')),
      ).toEqual([]);
      expect(out.body).toContain(
        '- NVIDIA GPU Operator: installed by a release the repository declares, which the bootstrap never edits; the notes say what it sets and what to set in it.',
      );
      expect(out.body).toContain(
        `- The GPU Operator is installed by Flux HelmRelease \`gpu-operator/gpu-operator\` in \`${release}\`, chart version v25.10.1, in namespace \`gpu-operator\`; the bootstrap writes no GPU Operator release of its own and never edits this one.`,
      );
      expect(out.body).toContain(
        '- **The cluster profile disagrees**: `migStrategy` of the cluster profile `prod`',
      );
    } finally {
      await handWritten.cleanup();
    }
  });

  it('names the input for an unknown cluster', async () => {
    const action = createGpuGitopsBootstrapAction(testServices(repo));
    const ctx = createMockActionContext({ input: { cluster: 'staging' } });
    await expect(action.handler(ctx)).rejects.toThrow(
      /input "cluster": unknown cluster "staging"/,
    );
  });

  it('runs its example', async () => {
    const step = yaml.parse(examples[0].example).steps[0];
    const action = createGpuGitopsBootstrapAction(testServices(repo));
    const ctx = createMockActionContext({ input: step.input });
    await action.handler(ctx);
    expect(outputsOf(ctx).changed).toBe(true);
  });
});
