import yaml from 'yaml';
import { createMockActionContext } from '@backstage/plugin-scaffolder-node-test-utils';
import {
  createFixtureGitopsRepo,
  type FixtureRepo,
} from '../__testUtils__/fixtureGitopsRepo';
import { testServices } from '../__testUtils__/testServices';
import { createGpuGitopsBootstrapAction } from './gpuGitopsBootstrap';
import { examples } from './gpuGitopsBootstrap.examples';

// Real git and a real backend under a shared, busy CI machine: a generous ceiling, not a speed goal.
jest.setTimeout(60_000);

function outputsOf(ctx: ReturnType<typeof createMockActionContext>) {
  return Object.fromEntries(
    (ctx.output as jest.Mock).mock.calls.map(([k, v]) => [k, v]),
  );
}

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
        'clusters/prod/gpu-scheduler/gpu-binpack.yaml',
      ]),
    );
    const values = yaml.parse(
      (await repo.show(
        'gpu/bootstrap-prod',
        'clusters/prod/gpu-operator/values.yaml',
      ))!,
    );
    expect(values.devicePlugin.config.default).toBe('default');
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
