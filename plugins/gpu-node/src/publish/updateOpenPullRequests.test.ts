import { promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {
  GpuInputError,
  resolveClusterProfile,
} from '@gpu-gitops/plugin-gpu-common';
import { createForge } from '../forges/createForge';
import {
  on,
  startFakeForgeServer,
} from '../forges/__testUtils__/fakeForgeServer';
import { BareRemote, createBareRemote } from '../git/__testUtils__/bareRemote';
import { ParseCache } from '../repo/parseCache';
import { parseYamlDocuments } from '../repo/yamlObjects';
import { publishGpuRelease } from './publishGpuRelease';
import { publishGpuRequest } from './publishGpuRequest';
import {
  catalog,
  cluster,
  gpuRequest,
  seedFiles,
} from './__testUtils__/fixtures';
import {
  updateOpenPullRequests,
  type UpdateOpenPullRequestsOptions,
} from './updateOpenPullRequests';

jest.setTimeout(120_000);

describe('updateOpenPullRequests', () => {
  let remote: BareRemote;
  let tmp: string;

  beforeEach(async () => {
    remote = await createBareRemote(seedFiles);
    tmp = await fs.mkdtemp(path.join(os.tmpdir(), 'gpu-gitops-update-'));
  });
  afterEach(async () => {
    await remote.cleanup();
    await fs.rm(tmp, { recursive: true, force: true });
  });

  const publish = (name: string, gpu = {}) =>
    publishGpuRequest({
      request: gpuRequest(name, gpu),
      cluster,
      catalog,
      repoUrl: remote.url,
      cacheDir: path.join(tmp, `file-${name}`),
    });
  const update = (more: Partial<UpdateOpenPullRequestsOptions> = {}) =>
    updateOpenPullRequests({
      repoUrl: remote.url,
      cacheDir: path.join(tmp, 'cache'),
      clusterFor: () => cluster,
      catalogFor: () => catalog,
      ...more,
    });
  /** The local forge, telling `asked` each branch whose pull request a re-render looks for (its turn begins). */
  const localForgeAsked = (asked: (branch: string) => void) => {
    const local = createForge('local');
    return {
      kind: local.kind,
      createOrUpdatePullRequest: local.createOrUpdatePullRequest.bind(local),
      findOpenPullRequest: async (
        ref: Parameters<typeof local.findOpenPullRequest>[0],
      ) => {
        asked(ref.headBranch);
        return local.findOpenPullRequest(ref);
      },
    };
  };
  /** A second cluster, `dev`, bootstrapped on main as prod is. */
  const bootstrapDev = async () => {
    await remote.commitFiles(
      {
        'clusters/dev/gpu/kustomization.yaml':
          seedFiles['clusters/prod/gpu/kustomization.yaml'],
      },
      'bootstrap dev',
    );
    return resolveClusterProfile({ name: 'dev' });
  };
  /** Merges a branch into main as a forge would (fast-forward when it can). */
  const mergeIntoMain = async (branch: string) => {
    const sha = (await remote.branchSha(branch))!;
    await remote.git(['update-ref', 'refs/heads/main', sha]);
  };

  it('leaves branches on the current base alone, and re-renders the others on the new base with a note', async () => {
    const a = await publish('first', { replicas: 3, vramGiB: 3 });
    const b = await publish('second', { replicas: 3, vramGiB: 3 });
    // Both created the same new pool, each counting only itself.
    expect(a.plan.pool.name).toBe(b.plan.pool.name);
    expect(a.plan.pool.limits).toEqual({ 'nvidia.com/gpu': 1 });

    expect(await update()).toEqual([
      { branch: a.branch, request: 'ml/first', outcome: 'up-to-date' },
      { branch: b.branch, request: 'ml/second', outcome: 'up-to-date' },
    ]);

    await mergeIntoMain(a.branch);
    const main = (await remote.branchSha('main'))!;
    const updates = await update();
    expect(updates).toEqual([
      { branch: a.branch, request: 'ml/first', outcome: 'merged' },
      expect.objectContaining({
        branch: b.branch,
        request: 'ml/second',
        outcome: 'updated',
      }),
    ]);
    // The second branch now sits on main and counts both requests.
    expect((await remote.git(['rev-parse', `${b.branch}^`])).trim()).toBe(main);
    const pool = (await remote.readFile(
      b.branch,
      `clusters/prod/gpu/nodepools/${b.plan.pool.name}.yaml`,
    ))!;
    expect(pool).toContain(
      'gpu.backstage.io/requests: ml/first=3, ml/second=3',
    );
    expect(pool).toContain('nvidia.com/gpu: "2"');
    const message = await remote.git(['log', '-1', '--format=%B', b.branch]);
    expect(message).toContain('Gpu-Request: ml/second');
    // A second run finds it up to date.
    expect((await update()).map(u => u.outcome)).toEqual([
      'merged',
      'up-to-date',
    ]);
  });

  /** The git checkouts under `dir` (the cached clones), two levels down at most. */
  const checkoutsUnder = async (dir: string, depth = 2): Promise<string[]> => {
    const entries = await fs.readdir(dir, { withFileTypes: true });
    if (entries.some(e => e.name === '.git')) return [dir];
    if (depth === 0) return [];
    const nested = await Promise.all(
      entries
        .filter(e => e.isDirectory())
        .map(e => checkoutsUnder(path.join(dir, e.name), depth - 1)),
    );
    return nested.flat();
  };

  it("keeps a re-render's checkout: reading the branches in the next pass does not narrow the clone a re-render checked out", async () => {
    const a = await publish('first', { replicas: 3, vramGiB: 3 });
    const b = await publish('second', { replicas: 3, vramGiB: 3 });
    await mergeIntoMain(a.branch);
    expect((await update()).map(u => [u.branch, u.outcome])).toEqual([
      [a.branch, 'merged'],
      [b.branch, 'updated'],
    ]);
    // The next pass reads every branch again and has nothing to re-render.
    expect((await update()).map(u => u.outcome)).toEqual([
      'merged',
      'up-to-date',
    ]);
    // A re-render reads the workload folders: on a 100k-workload repository
    // checking them out again is most of a pass, so the reader keeps out of
    // the clones the re-renders check them out in.
    const checkouts = await checkoutsUnder(path.join(tmp, 'cache'));
    const withWorkloads = await Promise.all(
      checkouts.map(dir =>
        fs
          .access(path.join(dir, 'apps/web/frontend/deployment.yaml'))
          .then(() => true)
          .catch(() => false),
      ),
    );
    expect(withWorkloads).toContain(true);
  });

  it("re-builds an open release on a moved base (the pool's ledger moved too), and calls it merged once the base no longer holds the request", async () => {
    const a = await publish('chat-a');
    await mergeIntoMain(a.branch);
    const release = await publishGpuRelease({
      request: { namespace: 'ml', name: 'chat-a' },
      clusterProfile: () => cluster,
      catalog,
      repoUrl: remote.url,
      cacheDir: path.join(tmp, 'release'),
    });
    const poolFile = `clusters/prod/gpu/nodepools/${a.plan.pool.name}.yaml`;
    // Another request joins the pool meanwhile: the release's ledger is stale.
    const b = await publish('chat-b');
    await mergeIntoMain(b.branch);

    const updates = await update();
    expect(updates.find(u => u.branch === release.branch)).toMatchObject({
      request: 'ml/chat-a',
      outcome: 'updated',
    });
    const main = (await remote.git(['rev-parse', 'main'])).trim();
    expect((await remote.git(['rev-parse', `${release.branch}^`])).trim()).toBe(
      main,
    );
    const pool = await remote.readFile(release.branch, poolFile);
    expect(pool).toContain('gpu.backstage.io/requests: ml/chat-b=2');
    expect(pool).not.toContain('ml/chat-a');
    expect(
      await remote.git(['log', '-1', '--format=%B', release.branch]),
    ).toContain('Gpu-Release: ml/chat-a');

    await mergeIntoMain(release.branch);
    const after = await update();
    expect(after.find(u => u.branch === release.branch)?.outcome).toMatch(
      /^(merged|up-to-date)$/,
    );
  });

  it('re-renders only the branches whose cluster or files the base’s move touched, and says the others were not affected', async () => {
    const dev = await bootstrapDev();
    const onDev = (name: string) => {
      const request = gpuRequest(name);
      return { ...request, spec: { ...request.spec, cluster: 'dev' } };
    };
    const publishOnDev = (name: string) =>
      publishGpuRequest({
        request: onDev(name),
        cluster: dev,
        catalog,
        repoUrl: remote.url,
        cacheDir: path.join(tmp, `file-${name}`),
      });
    const prodA = await publish('prod-a');
    const prodB = await publish('prod-b');
    const devA = await publishOnDev('dev-a');
    const devB = await publishOnDev('dev-b');
    const shas = async () =>
      Promise.all(
        [prodA, prodB, devA, devB].map(r => remote.branchSha(r.branch)),
      );
    const before = await shas();
    const updateBoth = () =>
      update({ clusterFor: name => (name === 'dev' ? dev : cluster) });

    // Outside every branch's scope: nothing is re-rendered.
    await remote.commitFiles({ 'README.md': '# moved\n' }, 'docs');
    const outcomes = async () =>
      Object.fromEntries((await updateBoth()).map(u => [u.request, u.outcome]));
    expect(await outcomes()).toEqual({
      'ml/dev-a': 'not-affected',
      'ml/dev-b': 'not-affected',
      'ml/prod-a': 'not-affected',
      'ml/prod-b': 'not-affected',
    });
    expect(await shas()).toEqual(before);

    // The dev cluster's folder moved: its two branches only.
    await remote.commitFiles(
      { 'clusters/dev/argocd-app.yaml': 'kind: Application\n' },
      'dev moved',
    );
    expect(await outcomes()).toEqual({
      'ml/dev-a': 'updated',
      'ml/dev-b': 'updated',
      'ml/prod-a': 'not-affected',
      'ml/prod-b': 'not-affected',
    });
    // prod's branches were published first: untouched.
    expect((await shas()).slice(0, 2)).toEqual(before.slice(0, 2));
    const main = (await remote.branchSha('main'))!;
    for (const r of [devA, devB]) {
      expect((await remote.git(['rev-parse', `${r.branch}^`])).trim()).toBe(
        main,
      );
    }
  });

  it("re-renders one cluster's pull requests one after another, so they share its state's read", async () => {
    const dev = await bootstrapDev();
    const request = (name: string, on: string) => {
      const r = gpuRequest(name);
      return { ...r, spec: { ...r.spec, cluster: on } };
    };
    const branches: string[] = [];
    for (const [name, on] of [
      ['a-prod', 'prod'],
      ['b-dev', 'dev'],
      ['c-prod', 'prod'],
    ]) {
      const result = await publishGpuRequest({
        request: request(name, on),
        cluster: on === 'dev' ? dev : cluster,
        catalog,
        repoUrl: remote.url,
        cacheDir: path.join(tmp, `file-${name}`),
      });
      branches.push(result.branch);
    }
    // Both clusters' folders move: every branch is re-rendered.
    await remote.commitFiles(
      {
        'clusters/dev/argocd-app.yaml': 'kind: Application\n',
        'clusters/prod/argocd-app.yaml': 'kind: Application # moved\n',
      },
      'both moved',
    );
    const renderedInTurn: string[] = [];
    const forge = localForgeAsked(branch => renderedInTurn.push(branch));
    const updates = await update({
      forge,
      concurrency: 1,
      clusterFor: name => (name === 'dev' ? dev : cluster),
    });
    expect(updates.map(u => [u.branch, u.outcome])).toEqual(
      branches.map(branch => [branch, 'updated']),
    );
    expect(renderedInTurn).toEqual([branches[1], branches[0], branches[2]]);
  }, 300_000);

  it('stops between pull requests once its signal aborts: the render under way finishes, the rest wait for the next pass', async () => {
    const branches = [await publish('first'), await publish('second')].map(
      r => r.branch,
    );
    await remote.commitFiles(
      { 'clusters/prod/argocd-app.yaml': 'kind: Application # moved\n' },
      'prod moved',
    );
    const controller = new AbortController();
    // The scheduler's timeout fires while the first re-render is under way.
    const forge = localForgeAsked(() => controller.abort());
    const outcomes = async (more: Partial<UpdateOpenPullRequestsOptions>) =>
      (await update({ forge, concurrency: 1, ...more })).map(u => [
        u.branch,
        u.outcome,
      ]);
    expect(await outcomes({ signal: controller.signal })).toEqual([
      [branches[0], 'updated'],
      [branches[1], 'stopped'],
    ]);
    expect(await outcomes({})).toEqual([
      [branches[0], 'up-to-date'],
      [branches[1], 'updated'],
    ]);
    // Real git under a loaded machine: the ceiling catches a hang only.
  }, 300_000);

  it('parses each file content once in a pass, and after the base moves by one file re-renders parse only that file', async () => {
    await publish('first');
    await publish('second');
    const parsed: string[] = [];
    const parseCache = new ParseCache({
      parse: (file, text) => {
        parsed.push(file);
        return parseYamlDocuments(file, text);
      },
    });
    // A team's own NodePool in the cluster's folder: it touches both branches.
    const teamPool = (name: string) => ({
      'clusters/prod/team-pool.yaml': `apiVersion: karpenter.sh/v1\nkind: NodePool\nmetadata:\n  name: ${name}\n`,
    });
    const updateBoth = async () =>
      (await update({ parseCache, concurrency: 1 })).map(u => u.outcome);

    await remote.commitFiles(teamPool('team-a'), 'team pool');
    expect(await updateBoth()).toEqual(['updated', 'updated']);
    // The second re-render read the same base: nothing parsed twice.
    expect(parsed).toContain('clusters/prod/team-pool.yaml');
    expect(new Set(parsed).size).toBe(parsed.length);

    parsed.length = 0;
    await remote.commitFiles(teamPool('team-b'), 'team pool renamed');
    expect(await updateBoth()).toEqual(['updated', 'updated']);
    expect(parsed).toEqual(['clusters/prod/team-pool.yaml']);
  }, 600_000);

  it('never touches a branch whose last commit is not the product’s', async () => {
    await remote.commitFiles(
      { 'notes.md': 'a person’s branch\n' },
      'notes',
      'gpu/someone-else',
    );
    await remote.commitFiles({ 'README.md': '# moved\n' }, 'move main');
    const before = await remote.branchSha('gpu/someone-else');
    expect(await update()).toEqual([
      { branch: 'gpu/someone-else', outcome: 'not-ours' },
    ]);
    expect(await remote.branchSha('gpu/someone-else')).toBe(before);
  });

  it('leaves a branch whose pull request was closed, and updates the open one on the forge with the note in its body', async () => {
    const open = await publish('open-one');
    const closed = await publish('closed-one');
    await remote.commitFiles(
      { 'clusters/prod/notes.md': 'prod moved\n' },
      'prod moved: its branches are re-rendered',
    );
    const server = await startFakeForgeServer([
      on(
        'GET',
        '/repos/acme/gitops/pulls?head=acme%3Agpu%2Fml-open-one&state=open',
        {
          status: 200,
          json: [
            { number: 7, html_url: 'https://github.com/acme/gitops/pull/7' },
          ],
        },
      ),
      on(
        'GET',
        '/repos/acme/gitops/pulls?head=acme%3Agpu%2Fml-closed-one&state=open',
        {
          status: 200,
          json: [],
        },
      ),
      on('POST', '/repos/acme/gitops/pulls', {
        status: 422,
        json: {
          message: 'Validation Failed',
          errors: [
            {
              message:
                'A pull request already exists for acme:gpu/ml-open-one.',
            },
          ],
        },
      }),
      on('PATCH', '/repos/acme/gitops/pulls/7', {
        status: 200,
        json: { number: 7, html_url: 'https://github.com/acme/gitops/pull/7' },
      }),
    ]);
    try {
      const closedSha = await remote.branchSha(closed.branch);
      const updates = await update({
        forge: createForge('github', {
          token: 'tok3n-for-tests',
          apiBaseUrl: server.baseUrl,
          repository: 'acme/gitops',
        }),
      });
      expect(updates).toEqual([
        { branch: closed.branch, request: 'ml/closed-one', outcome: 'closed' },
        {
          branch: open.branch,
          request: 'ml/open-one',
          outcome: 'updated',
          url: 'https://github.com/acme/gitops/pull/7',
        },
      ]);
      expect(await remote.branchSha(closed.branch)).toBe(closedSha);
      const patch = server.requests.find(r => r.method === 'PATCH')!;
      expect(patch.body.body).toMatch(
        /^> Updated by GPU GitOps: main moved to [0-9a-f]{12}, so this pull request was re-rendered from its request on the new base\./,
      );
    } finally {
      await server.close();
    }
  });

  it('reports a request that no longer passes the guard, and leaves its branch', async () => {
    const result = await publish('llm');
    await remote.commitFiles(
      { 'clusters/prod/notes.md': 'prod moved\n' },
      'prod moved: its branches are re-rendered',
    );
    const sha = await remote.branchSha(result.branch);
    const updates = await update({
      guardFor: () => () => {
        throw new GpuInputError([
          { path: 'spec.gpu', rule: 'quota', message: 'over the team quota' },
        ]);
      },
    });
    expect(updates).toEqual([
      {
        branch: result.branch,
        request: 'ml/llm',
        outcome: 'refused',
        detail: expect.stringContaining('over the team quota'),
      },
    ]);
    expect(await remote.branchSha(result.branch)).toBe(sha);
  });
});
