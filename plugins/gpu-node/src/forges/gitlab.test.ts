import { GitlabForge } from './gitlab';
import {
  FakeForgeServer,
  on,
  sequence,
  startFakeForgeServer,
} from './__testUtils__/fakeForgeServer';

const TOKEN = 'glpat-testTokenValue12345';
const noSleep = { attempts: 3, sleep: async () => {}, backoffMs: () => 1 };
const PROJECT = '/projects/platform%2Finfra%2Fgitops';

// Shapes follow docs.gitlab.com/api/merge_requests.
const mrJson = (iid: number) => ({
  id: 5000 + iid,
  iid,
  project_id: 42,
  title: 'GPU: ml/llm',
  state: 'opened',
  source_branch: 'gpu/ml-llm',
  target_branch: 'main',
  draft: false,
  web_url: `https://gitlab.example.com/platform/infra/gitops/-/merge_requests/${iid}`,
});

const input = {
  repoUrl: 'https://gitlab.example.com/platform/infra/gitops.git',
  baseBranch: 'main',
  headBranch: 'gpu/ml-llm',
  title: 'GPU: ml/llm',
  body: 'body',
  draft: true,
  labels: ['gpu', 'infra'],
  reviewers: ['bob'],
};

describe('GitlabForge', () => {
  let server: FakeForgeServer;
  afterEach(async () => server?.close());
  const forge = () =>
    new GitlabForge({
      token: TOKEN,
      apiBaseUrl: `${server.baseUrl}/api/v4`,
      retry: noSleep,
    });

  it('creates a merge request on the URL-encoded project path', async () => {
    server = await startFakeForgeServer([
      on('GET', '/api/v4/users?username=bob', {
        status: 200,
        json: [{ id: 17, username: 'bob', name: 'Bob', state: 'active' }],
      }),
      on('POST', `/api/v4${PROJECT}/merge_requests`, {
        status: 201,
        json: mrJson(4),
      }),
    ]);
    const result = await forge().createOrUpdatePullRequest(input);
    expect(result).toEqual({
      url: mrJson(4).web_url,
      number: 4,
      updated: false,
    });
    const create = server.requests[1];
    expect(create.method).toBe('POST');
    expect(create.headers.authorization).toBe(`Bearer ${TOKEN}`);
    expect(create.body).toEqual({
      source_branch: 'gpu/ml-llm',
      target_branch: 'main',
      remove_source_branch: true,
      title: 'Draft: GPU: ml/llm',
      description: 'body',
      labels: 'gpu,infra',
      reviewer_ids: [17],
    });
  });

  it('updates the open MR on 409 already exists', async () => {
    server = await startFakeForgeServer([
      on('POST', `/api/v4${PROJECT}/merge_requests`, {
        status: 409,
        json: {
          message: [
            'Another open merge request already exists for this source branch: !12',
          ],
        },
      }),
      on(
        'GET',
        `/api/v4${PROJECT}/merge_requests?source_branch=gpu%2Fml-llm&state=opened`,
        {
          status: 200,
          json: [mrJson(12)],
        },
      ),
      on('PUT', `/api/v4${PROJECT}/merge_requests/12`, {
        status: 200,
        json: mrJson(12),
      }),
    ]);
    const result = await forge().createOrUpdatePullRequest({
      ...input,
      reviewers: [],
    });
    expect(result).toEqual({
      url: mrJson(12).web_url,
      number: 12,
      updated: true,
    });
    const put = server.requests.find(r => r.method === 'PUT')!;
    expect(put.body).toEqual({
      title: 'Draft: GPU: ml/llm',
      description: 'body',
      target_branch: 'main',
      labels: 'gpu,infra',
    });
  });

  it('explains 401 without leaking the token', async () => {
    server = await startFakeForgeServer([
      on('POST', `/api/v4${PROJECT}/merge_requests`, {
        status: 401,
        json: { message: '401 Unauthorized' },
      }),
    ]);
    const error = await forge()
      .createOrUpdatePullRequest({ ...input, reviewers: [] })
      .catch(e => e);
    expect(error.message).toMatch(
      /GitLab rejected the credentials \(HTTP 401: 401 Unauthorized\)/,
    );
    expect(error.message).toMatch(/token is missing/);
    expect(error.message).not.toContain(TOKEN);
  });

  it('refuses an API root that carries the token in its query, sending nothing', async () => {
    server = await startFakeForgeServer([
      on('POST', `/api/v4${PROJECT}/merge_requests`, {
        status: 201,
        json: mrJson(4),
      }),
    ]);
    const error = await Promise.resolve()
      .then(() =>
        new GitlabForge({
          token: TOKEN,
          apiBaseUrl: `${server.baseUrl}/api/v4?private_token=${TOKEN}`,
          retry: noSleep,
        }).createOrUpdatePullRequest({ ...input, reviewers: [] }),
      )
      .catch(e => e);
    expect(error.name).toBe('GpuInputError');
    expect(error.message).toContain('apiBaseUrl');
    expect(error.issues.map((i: { rule: string }) => i.rule)).toEqual([
      'url-query',
    ]);
    expect(error.message).not.toContain(TOKEN);
    expect(server.requests).toEqual([]);
  });

  it("reports validation errors with GitLab's message", async () => {
    server = await startFakeForgeServer([
      on('POST', `/api/v4${PROJECT}/merge_requests`, {
        status: 422,
        json: {
          message: [
            'Validate branches Cannot Create: This merge request already... no, target branch missing',
          ],
        },
      }),
    ]);
    // 'already' alone must not be mistaken for "already exists"
    await expect(
      forge().createOrUpdatePullRequest({ ...input, reviewers: [] }),
    ).rejects.toThrow(
      /GitLab refused the merge request \(HTTP 422\): Validate branches/,
    );
  });

  it('retries 5xx then succeeds', async () => {
    server = await startFakeForgeServer([
      sequence('POST', `/api/v4${PROJECT}/merge_requests`, [
        { status: 500, json: { message: '500 Internal Server Error' } },
        { status: 201, json: mrJson(1) },
      ]),
    ]);
    const result = await forge().createOrUpdatePullRequest({
      ...input,
      reviewers: [],
    });
    expect(result.number).toBe(1);
    expect(server.requests).toHaveLength(2);
  });
});
