import yaml from 'yaml';
import { InputError } from '@backstage/errors';
import { createMockActionContext } from '@backstage/plugin-scaffolder-node-test-utils';
import {
  createFixtureGitopsRepo,
  git,
  type FixtureRepo,
} from '../__testUtils__/fixtureGitopsRepo';
import { testServices } from '../__testUtils__/testServices';
import { createGpuGitopsPullRequestAction } from './gpuGitopsPullRequest';
import { examples } from './gpuGitopsPullRequest.examples';
import { outputsOf } from '../__testUtils__/actionOutputs';

// Real git and a real backend under a shared, busy CI machine: a generous ceiling, not a speed goal.
jest.setTimeout(60_000);

const input = {
  name: 'chat-api',
  namespace: 'ml',
  owner: 'group:default/ml-platform',
  model: 't4',
  sharing: 'time-slicing' as const,
  replicas: 2,
  // 4 slices per GPU, like the fixture's shared T4 pool, so that pool is reused.
  slicesPerGpu: 4,
  vramGiB: 3,
  image: 'ghcr.io/example/chat-api:1.0.0',
};

describe('gpu:gitops:pull-request', () => {
  let repo: FixtureRepo;

  beforeEach(async () => {
    repo = await createFixtureGitopsRepo();
  });
  afterEach(async () => {
    await repo.cleanup();
  });

  it('pushes the request branch to the local repository and outputs the PR', async () => {
    const action = createGpuGitopsPullRequestAction(testServices(repo));
    // 8 more slices on top of chat-assistant's 2 exceed the pool's 2 GPUs x 4 slices.
    const ctx = createMockActionContext({ input: { ...input, replicas: 8 } });
    await action.handler(ctx);
    const out = outputsOf(ctx);
    expect(out.branchName).toBe('gpu/ml-chat-api');
    // The local forge's pull request is reviewed on the app's page, not a file:// URL.
    expect(out.pullRequestUrl).toBe('/gpu/pull-requests/ml-chat-api');
    expect(out.changed).toBe(true);
    expect(out.body).toContain('chat-api');
    const refs = await repo.refs();
    expect(refs['refs/heads/gpu/ml-chat-api']).toBe(out.commit);
    // The branch holds the workload, the request and the raised limit of the reused pool.
    const files = await repo.files('gpu/ml-chat-api');
    expect(files).toEqual(
      expect.arrayContaining(['requests/ml/chat-api.yaml']),
    );
    expect(files.some(f => f.startsWith('apps/ml/chat-api/'))).toBe(true);
    const pool = await repo.show(
      'gpu/ml-chat-api',
      'clusters/dev/gpu/nodepools/gpu-t4-ts4.yaml',
    );
    expect(pool).toContain('# Shared T4 pool for small inference services');
    expect(out.files).toContain('clusters/dev/gpu/nodepools/gpu-t4-ts4.yaml');
    // The reused pool's physical-GPU limit (2) is raised for this request.
    const limit = out.plan.pool.limits['nvidia.com/gpu'];
    expect(limit).toBeGreaterThan(2);
    expect(
      Number(
        yaml.parseAllDocuments(pool!)[0].toJS().spec.limits['nvidia.com/gpu'],
      ),
    ).toBe(limit);
    // Unrelated apps untouched.
    expect(
      await repo.show('gpu/ml-chat-api', 'apps/web/storefront/deployment.yaml'),
    ).toBe(await repo.show('main', 'apps/web/storefront/deployment.yaml'));
  });

  it('is safe to re-run: the same branch, no second commit', async () => {
    const action = createGpuGitopsPullRequestAction(testServices(repo));
    const first = createMockActionContext({ input });
    await action.handler(first);
    const before = await repo.refs();
    const second = createMockActionContext({ input });
    await action.handler(second);
    expect(await repo.refs()).toEqual(before);
    expect(outputsOf(second).branchName).toBe(outputsOf(first).branchName);
  });

  it('on task recovery reuses the checkpointed result instead of pushing again', async () => {
    const action = createGpuGitopsPullRequestAction(testServices(repo));
    const store = new Map<string, unknown>();
    // A checkpoint that remembers results per key, as the task store does across a restart.
    const checkpoint = async ({
      key,
      fn,
    }: {
      key: string;
      fn: () => unknown;
    }) => {
      if (!store.has(key)) store.set(key, await fn());
      return store.get(key) as any;
    };
    const first = { ...createMockActionContext({ input }), checkpoint };
    await action.handler(first);
    expect([...store.keys()]).toEqual([
      `gpu.pull-request.${repo.bareDir}.ml.chat-api`,
    ]);
    // Someone moves the branch after the first run; a recovered run must not push over it.
    const moved = (await repo.refs())['refs/heads/main'];
    await git(
      ['update-ref', 'refs/heads/gpu/ml-chat-api', moved],
      repo.bareDir,
    );
    const recovered = { ...createMockActionContext({ input }), checkpoint };
    await action.handler(recovered);
    expect((await repo.refs())['refs/heads/gpu/ml-chat-api']).toBe(moved);
    expect(outputsOf(recovered).pullRequestUrl).toBe(
      outputsOf(first).pullRequestUrl,
    );
    expect(outputsOf(recovered).commit).toBe(outputsOf(first).commit);
  });

  it('in dry-run computes the diff and pushes nothing', async () => {
    const action = createGpuGitopsPullRequestAction(testServices(repo));
    const ctx = { ...createMockActionContext({ input }), isDryRun: true };
    await action.handler(ctx);
    const out = outputsOf(ctx);
    expect(out.diff).toContain('+++ b/requests/ml/chat-api.yaml');
    expect(out.pullRequestUrl).toBe('');
    expect(Object.keys(await repo.refs())).toEqual(['refs/heads/main']);
  });

  it('fails an over-quota request before any push, saying by how much', async () => {
    const action = createGpuGitopsPullRequestAction(
      testServices(repo, { policy: { defaults: { gpuQuota: 0.5 } } }),
    );
    const ctx = createMockActionContext({ input: { ...input, replicas: 4 } });
    await expect(action.handler(ctx)).rejects.toThrow(
      /GPU quota exceeded for group:default\/ml-platform on dev by 1 GPU: quota 0.5, already used 0.5, this request needs 1 /,
    );
    expect(Object.keys(await repo.refs())).toEqual(['refs/heads/main']);
  });

  it('fails an invalid request with the field named and the repository untouched', async () => {
    const action = createGpuGitopsPullRequestAction(testServices(repo));
    const ctx = createMockActionContext({
      input: {
        ...input,
        slicesPerGpu: undefined,
        model: 't4',
        sharing: 'mig' as const,
      },
    });
    const failure = action.handler(ctx);
    await expect(failure).rejects.toThrow(InputError);
    await expect(failure).rejects.toThrow(/input "(sharing|model)"/);
    expect(Object.keys(await repo.refs())).toEqual(['refs/heads/main']);
  });

  it('never logs or outputs a user token', async () => {
    const token = 'user-secret-token-1234567890';
    const logged: string[] = [];
    const logger = {
      info: (m: string) => logged.push(m),
      warn: (m: string) => logged.push(m),
      error: (m: string) => logged.push(m),
      debug: (m: string) => logged.push(m),
      child: () => logger,
    };
    const action = createGpuGitopsPullRequestAction(testServices(repo));
    const ctx = createMockActionContext({
      input: { ...input, token },
      logger: logger as any,
    });
    await action.handler(ctx);
    expect(logged.join('\n')).not.toContain(token);
    expect(JSON.stringify(outputsOf(ctx))).not.toContain(token);
  });

  it('runs its first example against the configured repository', async () => {
    const step = yaml.parse(examples[0].example).steps[0];
    const action = createGpuGitopsPullRequestAction(testServices(repo));
    const ctx = createMockActionContext({ input: step.input });
    await action.handler(ctx);
    expect(outputsOf(ctx).branchName).toBe(
      `gpu/${step.input.namespace}-${step.input.name}`,
    );
  });
});
