import { createMockActionContext } from '@backstage/plugin-scaffolder-node-test-utils';
import { validateGitOpsTree } from '@gpu-gitops/plugin-gpu-node';
import {
  createFixtureGitopsRepo,
  type FixtureRepo,
} from '../__testUtils__/fixtureGitopsRepo';
import { testServices } from '../__testUtils__/testServices';
import { createGpuGitopsReleaseAction } from './gpuGitopsRelease';
import { outputsOf } from '../__testUtils__/actionOutputs';

// Real git and the real kustomize on a shared, busy CI machine: a generous ceiling, not a speed goal.
jest.setTimeout(60_000);

describe('gpu:gitops:release', () => {
  let repo: FixtureRepo;
  beforeEach(async () => {
    repo = await createFixtureGitopsRepo();
  });
  afterEach(async () => {
    await repo.cleanup();
  });

  it('opens the release pull request of a merged request: its record and workload go, its pool shrinks, the tree validates', async () => {
    const action = createGpuGitopsReleaseAction(testServices(repo));
    const input = { name: 'chat-assistant', namespace: 'ml' };

    const dryRun = { ...createMockActionContext({ input }), isDryRun: true };
    await action.handler(dryRun);
    expect(outputsOf(dryRun).diff).toContain(
      '--- a/requests/ml/chat-assistant.yaml\n+++ /dev/null',
    );
    expect(Object.keys(await repo.refs())).toEqual(['refs/heads/main']);

    const ctx = createMockActionContext({ input });
    await action.handler(ctx);
    const out = outputsOf(ctx);
    expect(out.branchName).toBe('gpu/release-ml-chat-assistant');
    expect(out.pullRequestUrl).toBe(
      '/gpu/pull-requests/release-ml-chat-assistant',
    );
    expect(
      (await repo.refs())['refs/heads/gpu/release-ml-chat-assistant'],
    ).toBe(out.commit);
    expect(
      await repo.show(out.branchName, 'requests/ml/chat-assistant.yaml'),
    ).toBeUndefined();
    expect(out.plan.pools.map((p: { name: string }) => p.name)).toEqual([
      'gpu-t4-ts4',
    ]);
    expect(out.savedUsdPerMonth).toBe(out.plan.savedUsdPerMonth);
    expect(out.body).toContain('## Release GPUs of `ml/chat-assistant`');
    // The release leaves no finding the base did not have.
    const findings = async (branch: string) =>
      (await validateGitOpsTree(await repo.checkout(branch))).map(
        f => `${f.rule} ${f.message}`,
      );
    const before = await findings('main');
    expect(
      (await findings(out.branchName)).filter(f => !before.includes(f)),
    ).toEqual([]);
  });

  it('a request that is not in the repository fails the step with the reason', async () => {
    const action = createGpuGitopsReleaseAction(testServices(repo));
    const ctx = createMockActionContext({
      input: { name: 'never-requested', namespace: 'ml' },
    });
    await expect(action.handler(ctx)).rejects.toThrow(
      /ml\/never-requested is not in main of .*: no request of that name was ever merged there, or it was released already\./,
    );
    expect(Object.keys(await repo.refs())).toEqual(['refs/heads/main']);
  });
});
