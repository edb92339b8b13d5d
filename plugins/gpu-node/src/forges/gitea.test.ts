import { GiteaForge } from './gitea';
import {
  FakeForgeServer,
  on,
  sequence,
  startFakeForgeServer,
} from './__testUtils__/fakeForgeServer';

const TOKEN = 'gitea-testTokenValue98765';
const noSleep = { attempts: 3, sleep: async () => {}, backoffMs: () => 1 };

// Shapes follow Gitea's swagger (PullRequest, CreatePullRequestOption, EditPullRequestOption).
const pullJson = (n: number, ref = 'gpu/ml-llm') => ({
  id: 300 + n,
  number: n,
  state: 'open',
  title: 'GPU: ml/llm',
  html_url: `https://gitea.example.com/acme/gitops/pulls/${n}`,
  head: { label: ref, ref, sha: 'abc' },
  base: { label: 'main', ref: 'main', sha: 'def' },
});

const input = {
  repoUrl: 'https://gitea.example.com/acme/gitops.git',
  baseBranch: 'main',
  headBranch: 'gpu/ml-llm',
  title: 'GPU: ml/llm',
  body: 'body',
  labels: ['gpu'],
  reviewers: ['carol'],
};

describe('GiteaForge', () => {
  let server: FakeForgeServer;
  afterEach(async () => server?.close());
  const forge = () =>
    new GiteaForge({
      token: TOKEN,
      apiBaseUrl: `${server.baseUrl}/api/v1`,
      retry: noSleep,
    });

  it('creates a PR with the token header, labels and reviewers', async () => {
    server = await startFakeForgeServer([
      on('POST', '/api/v1/repos/acme/gitops/pulls', {
        status: 201,
        json: pullJson(2),
      }),
      on('POST', '/api/v1/repos/acme/gitops/issues/2/labels', {
        status: 200,
        json: [{ id: 1, name: 'gpu' }],
      }),
      on('POST', '/api/v1/repos/acme/gitops/pulls/2/requested_reviewers', {
        status: 201,
        json: [],
      }),
    ]);
    const result = await forge().createOrUpdatePullRequest({
      ...input,
      draft: true,
    });
    expect(result).toEqual({
      url: pullJson(2).html_url,
      number: 2,
      updated: false,
    });
    const [create, labels, reviewers] = server.requests;
    expect(create.headers.authorization).toBe(`token ${TOKEN}`);
    expect(create.body).toEqual({
      head: 'gpu/ml-llm',
      base: 'main',
      title: 'WIP: GPU: ml/llm',
      body: 'body',
    });
    expect(labels.body).toEqual({ labels: ['gpu'] });
    expect(reviewers.body).toEqual({ reviewers: ['carol'] });
  });

  it.each([409, 422])(
    'finds and patches the existing PR on %i',
    async status => {
      server = await startFakeForgeServer([
        on('POST', '/api/v1/repos/acme/gitops/pulls', {
          status,
          json: {
            message:
              'pull request already exists for these targets [id: 5, issue_id: 9, head_repo_id: 1, base_repo_id: 1, head_branch: gpu/ml-llm, base_branch: main]',
            url: 'https://gitea.example.com/api/swagger',
          },
        }),
        on(
          'GET',
          '/api/v1/repos/acme/gitops/pulls?state=open&limit=50&page=1',
          {
            status: 200,
            json: [pullJson(4, 'gpu/other'), pullJson(5)],
          },
        ),
        on('PATCH', '/api/v1/repos/acme/gitops/pulls/5', {
          status: 201,
          json: pullJson(5),
        }),
      ]);
      const result = await forge().createOrUpdatePullRequest({
        ...input,
        labels: [],
        reviewers: [],
      });
      expect(result).toEqual({
        url: pullJson(5).html_url,
        number: 5,
        updated: true,
      });
      const patch = server.requests.find(r => r.method === 'PATCH')!;
      expect(patch.body).toEqual({
        title: 'GPU: ml/llm',
        body: 'body',
        base: 'main',
      });
      expect(patch.headers.authorization).toBe(`token ${TOKEN}`);
    },
  );

  it('explains 403 without leaking the token', async () => {
    server = await startFakeForgeServer([
      on('POST', '/api/v1/repos/acme/gitops/pulls', {
        status: 403,
        json: {
          message:
            'token does not have at least one of required scope(s): [write:repository]',
        },
      }),
    ]);
    const error = await forge()
      .createOrUpdatePullRequest(input)
      .catch(e => e);
    expect(error.message).toMatch(
      /Gitea rejected the credentials \(HTTP 403: token does not have/,
    );
    expect(error.message).not.toContain(TOKEN);
  });

  it('reports 422 validation errors that are not duplicates', async () => {
    server = await startFakeForgeServer([
      on('POST', '/api/v1/repos/acme/gitops/pulls', {
        status: 422,
        json: {
          message:
            'Invalid PullRequest: There are no changes between the head and the base',
        },
      }),
    ]);
    await expect(forge().createOrUpdatePullRequest(input)).rejects.toThrow(
      'Gitea refused the pull request (HTTP 422): Invalid PullRequest: There are no changes between the head and the base',
    );
  });

  it('retries 5xx then succeeds', async () => {
    server = await startFakeForgeServer([
      sequence('POST', '/api/v1/repos/acme/gitops/pulls', [
        { status: 503 },
        { status: 201, json: pullJson(8) },
      ]),
    ]);
    const result = await forge().createOrUpdatePullRequest({
      ...input,
      labels: [],
      reviewers: [],
    });
    expect(result.number).toBe(8);
  });
});
