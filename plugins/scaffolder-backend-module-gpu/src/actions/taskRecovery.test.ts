import { createMockActionContext } from '@backstage/plugin-scaffolder-node-test-utils';
import { legacyKarpenterRepoFiles } from '@gpu-gitops/plugin-gpu-node/testUtils';
import {
  createFixtureGitopsRepo,
  createFixtureGitopsRepoWith,
  type FixtureRepo,
} from '../__testUtils__/fixtureGitopsRepo';
import { TASK_CRASHED, taskCheckpoints } from '../__testUtils__/taskRecovery';
import { testServices } from '../__testUtils__/testServices';
import { createGpuGitopsBootstrapAction } from './gpuGitopsBootstrap';
import { createGpuGitopsImportAction } from './gpuGitopsImport';
import { createGpuGitopsPullRequestAction } from './gpuGitopsPullRequest';
import { createGpuGitopsReleaseAction } from './gpuGitopsRelease';
import { outputsOf } from '../__testUtils__/actionOutputs';

// Real git and the real kustomize on a shared, busy CI machine: a generous ceiling, not a speed goal.
jest.setTimeout(120_000);

/** A remote holding the Karpenter v0.31 setup of cluster `legacy` (what import adopts). */
function legacyRepo(): Promise<FixtureRepo> {
  return createFixtureGitopsRepoWith(legacyKarpenterRepoFiles());
}

const legacyClusters = {
  clusters: { default: 'legacy', profiles: { legacy: {}, dev: {} } },
};

const publishingActions = [
  {
    action: 'gpu:gitops:pull-request',
    repo: () => createFixtureGitopsRepo(),
    create: (repo: FixtureRepo) =>
      createGpuGitopsPullRequestAction(testServices(repo)),
    input: {
      name: 'chat-api',
      namespace: 'ml',
      owner: 'group:default/ml-platform',
      model: 't4',
      sharing: 'time-slicing',
      replicas: 2,
      slicesPerGpu: 4,
      vramGiB: 3,
      image: 'ghcr.io/example/chat-api:1.0.0',
    },
    branch: 'gpu/ml-chat-api',
  },
  {
    action: 'gpu:gitops:release',
    repo: () => createFixtureGitopsRepo(),
    create: (repo: FixtureRepo) =>
      createGpuGitopsReleaseAction(testServices(repo)),
    input: { name: 'chat-assistant', namespace: 'ml' },
    branch: 'gpu/release-ml-chat-assistant',
  },
  {
    action: 'gpu:gitops:import',
    repo: legacyRepo,
    create: (repo: FixtureRepo) =>
      createGpuGitopsImportAction(testServices(repo, legacyClusters)),
    input: { cluster: 'legacy', owner: 'group:default/ml-platform' },
    branch: 'gpu/import-legacy',
  },
  {
    action: 'gpu:gitops:bootstrap',
    repo: () => createFixtureGitopsRepo(),
    create: (repo: FixtureRepo) =>
      createGpuGitopsBootstrapAction(testServices(repo)),
    input: { cluster: 'prod', binPacking: true },
    branch: 'gpu/bootstrap-prod',
  },
];

describe('task recovery (scaffolder.taskRecovery)', () => {
  let repo: FixtureRepo | undefined;
  afterEach(async () => {
    await repo?.cleanup();
    repo = undefined;
  });

  it.each(publishingActions)(
    '$action resumed after a crash past its push: one branch, one pull request, the same content',
    async ({ repo: makeRepo, create, input, branch }) => {
      repo = await makeRepo();
      const action = create(repo);
      const task = taskCheckpoints();

      const crashed = {
        ...createMockActionContext({ input }),
        checkpoint: task.crashAfterWork,
      };
      await expect(action.handler(crashed as any)).rejects.toThrow(
        TASK_CRASHED,
      );
      const pushed = await repo.refs();
      expect(pushed[`refs/heads/${branch}`]).toBeDefined();
      expect(task.saved.size).toBe(0);

      // The recovered task runs the step again; nothing was saved before the crash.
      const resumed = {
        ...createMockActionContext({ input }),
        checkpoint: task.checkpoint,
      };
      await action.handler(resumed as any);
      expect(await repo.refs()).toEqual(pushed);
      const out = outputsOf(resumed);
      expect(out.branchName).toBe(branch);
      expect(out.pullRequestUrl).toBe(
        `/gpu/pull-requests/${branch.slice('gpu/'.length)}`,
      );
      expect(task.saved.size).toBe(1);

      // A second restart after the step saved its result answers from the save.
      const again = {
        ...createMockActionContext({ input }),
        checkpoint: task.checkpoint,
      };
      await action.handler(again as any);
      expect(await repo.refs()).toEqual(pushed);
      expect(outputsOf(again).branchName).toBe(branch);
      expect(outputsOf(again).pullRequestUrl).toBe(out.pullRequestUrl);
    },
  );
});
