import { Redactor } from '../redact';
import { GithubForge, githubApiBaseUrl } from './github';
import {
  FakeForgeServer,
  on,
  sequence,
  startFakeForgeServer,
} from './__testUtils__/fakeForgeServer';

const TOKEN = 'ghp_testTokenValue1234567890';
const noSleep = { attempts: 3, sleep: async () => {}, backoffMs: () => 1 };

// Shapes follow docs.github.com/rest/pulls/pulls (create / list / update).
const pullJson = (n: number) => ({
  url: `https://api.github.com/repos/acme/gitops/pulls/${n}`,
  id: 1000 + n,
  number: n,
  state: 'open',
  draft: true,
  title: 'GPU: ml/llm',
  html_url: `https://github.com/acme/gitops/pull/${n}`,
  head: { ref: 'gpu/ml-llm', label: 'acme:gpu/ml-llm' },
  base: { ref: 'main', label: 'acme:main' },
});

const input = {
  repoUrl: 'https://github.com/acme/gitops.git',
  baseBranch: 'main',
  headBranch: 'gpu/ml-llm',
  title: 'GPU: ml/llm',
  body: 'body text',
  draft: true,
  labels: ['gpu'],
  reviewers: ['alice'],
};

describe('GithubForge', () => {
  let server: FakeForgeServer;
  afterEach(async () => server?.close());

  const forge = (token: string | undefined = TOKEN) =>
    new GithubForge({ token, apiBaseUrl: server.baseUrl, retry: noSleep });

  it('derives the API base for github.com and GHE', () => {
    expect(githubApiBaseUrl('https://github.com/a/b')).toBe(
      'https://api.github.com',
    );
    expect(githubApiBaseUrl('https://ghe.corp:8443/a/b.git')).toBe(
      'https://ghe.corp:8443/api/v3',
    );
  });

  it('creates a draft PR, adds labels and reviewers', async () => {
    server = await startFakeForgeServer([
      on('POST', '/repos/acme/gitops/pulls', {
        status: 201,
        json: pullJson(7),
      }),
      on('POST', '/repos/acme/gitops/issues/7/labels', {
        status: 200,
        json: [{ id: 1, name: 'gpu', color: 'ededed' }],
      }),
      on('POST', '/repos/acme/gitops/pulls/7/requested_reviewers', {
        status: 201,
        json: pullJson(7),
      }),
    ]);
    const result = await forge().createOrUpdatePullRequest(input);
    expect(result).toEqual({
      url: 'https://github.com/acme/gitops/pull/7',
      number: 7,
      updated: false,
    });
    const [create, labels, reviewers] = server.requests;
    expect(create.method).toBe('POST');
    expect(create.headers.authorization).toBe(`Bearer ${TOKEN}`);
    expect(create.headers.accept).toBe('application/vnd.github+json');
    expect(create.headers['x-github-api-version']).toBe('2022-11-28');
    expect(create.body).toEqual({
      title: 'GPU: ml/llm',
      head: 'gpu/ml-llm',
      base: 'main',
      body: 'body text',
      draft: true,
      maintainer_can_modify: true,
    });
    expect(labels.body).toEqual({ labels: ['gpu'] });
    expect(reviewers.body).toEqual({ reviewers: ['alice'] });
    expect(server.requests).toHaveLength(3);
  });

  it('updates the open PR when one already exists (422)', async () => {
    server = await startFakeForgeServer([
      on('POST', '/repos/acme/gitops/pulls', {
        status: 422,
        json: {
          message: 'Validation Failed',
          errors: [
            {
              resource: 'PullRequest',
              code: 'custom',
              message: 'A pull request already exists for acme:gpu/ml-llm.',
            },
          ],
          documentation_url:
            'https://docs.github.com/rest/pulls/pulls#create-a-pull-request',
        },
      }),
      on(
        'GET',
        '/repos/acme/gitops/pulls?head=acme%3Agpu%2Fml-llm&state=open',
        {
          status: 200,
          json: [pullJson(3)],
        },
      ),
      on('PATCH', '/repos/acme/gitops/pulls/3', {
        status: 200,
        json: pullJson(3),
      }),
      on('POST', /^\/repos\/acme\/gitops\/(issues|pulls)\/3\//, {
        status: 200,
        json: {},
      }),
    ]);
    const result = await forge().createOrUpdatePullRequest(input);
    expect(result).toEqual({
      url: 'https://github.com/acme/gitops/pull/3',
      number: 3,
      updated: true,
    });
    const patch = server.requests.find(r => r.method === 'PATCH')!;
    expect(patch.body).toEqual({
      title: 'GPU: ml/llm',
      body: 'body text',
      base: 'main',
    });
    expect(patch.headers.authorization).toBe(`Bearer ${TOKEN}`);
  });

  it('explains 401 without leaking the token', async () => {
    server = await startFakeForgeServer([
      on('POST', '/repos/acme/gitops/pulls', {
        status: 401,
        json: {
          message: `Bad credentials ${TOKEN}`,
          documentation_url: 'https://docs.github.com/rest',
        },
      }),
    ]);
    const error = await forge()
      .createOrUpdatePullRequest(input)
      .catch(e => e);
    expect(error.message).toMatch(
      /token is missing, invalid or lacks the scope/,
    );
    expect(error.message).toMatch(/HTTP 401: Bad credentials/);
    expect(error.message).not.toContain(TOKEN);
    expect(error.status).toBe(401);
    expect(server.requests).toHaveLength(1);
  });

  it('explains 403 (missing scope)', async () => {
    server = await startFakeForgeServer([
      on('POST', '/repos/acme/gitops/pulls', {
        status: 403,
        json: { message: 'Resource not accessible by integration' },
      }),
    ]);
    await expect(forge().createOrUpdatePullRequest(input)).rejects.toThrow(
      /HTTP 403: Resource not accessible by integration.*lacks the scope/,
    );
  });

  it('surfaces other 422 validation messages', async () => {
    server = await startFakeForgeServer([
      on('POST', '/repos/acme/gitops/pulls', {
        status: 422,
        json: {
          message: 'Validation Failed',
          errors: [
            {
              resource: 'PullRequest',
              code: 'custom',
              message: 'No commits between main and gpu/ml-llm',
            },
          ],
        },
      }),
    ]);
    await expect(forge().createOrUpdatePullRequest(input)).rejects.toThrow(
      'GitHub refused the pull request (HTTP 422): Validation Failed: No commits between main and gpu/ml-llm',
    );
  });

  it('retries 5xx with backoff, then succeeds', async () => {
    const delays: number[] = [];
    server = await startFakeForgeServer([
      sequence('POST', '/repos/acme/gitops/pulls', [
        { status: 502, json: { message: 'Server Error' } },
        { status: 503 },
        { status: 201, json: pullJson(9) },
      ]),
    ]);
    const f = new GithubForge({
      token: TOKEN,
      apiBaseUrl: server.baseUrl,
      retry: {
        attempts: 3,
        backoffMs: n => n * 10,
        sleep: async ms => {
          delays.push(ms);
        },
      },
    });
    const result = await f.createOrUpdatePullRequest({
      ...input,
      labels: [],
      reviewers: [],
    });
    expect(result.number).toBe(9);
    expect(delays).toEqual([10, 20]);
    expect(server.requests).toHaveLength(3);
  });

  it('gives up after the bounded retries', async () => {
    server = await startFakeForgeServer([
      on('POST', '/repos/acme/gitops/pulls', {
        status: 500,
        json: { message: 'boom' },
      }),
    ]);
    await expect(forge().createOrUpdatePullRequest(input)).rejects.toThrow(
      /HTTP 500: boom \(gave up after 3 attempts\)/,
    );
    expect(server.requests).toHaveLength(3);
  });

  it('sends no Authorization header without a token and redacts extra secrets', async () => {
    server = await startFakeForgeServer([
      on('POST', '/repos/acme/gitops/pulls', {
        status: 401,
        json: { message: 'Requires authentication other-secret-value' },
      }),
    ]);
    const f = new GithubForge({
      apiBaseUrl: server.baseUrl,
      retry: noSleep,
      redactor: new Redactor(['other-secret-value']),
    });
    const error = await f.createOrUpdatePullRequest(input).catch(e => e);
    expect(server.requests[0].headers.authorization).toBeUndefined();
    expect(error.message).toContain('Requires authentication ***');
  });

  it('refuses credentials in the repo URL', async () => {
    server = await startFakeForgeServer([]);
    const error = await forge()
      .createOrUpdatePullRequest({
        ...input,
        repoUrl: `https://x-access-token:${TOKEN}@github.com/acme/gitops`,
      })
      .catch(e => e);
    expect(error.message).toMatch(/must not contain credentials/);
    expect(error.message).not.toContain(TOKEN);
    expect(server.requests).toHaveLength(0);
  });

  it('retries network failures and gives up with a clear message', async () => {
    server = await startFakeForgeServer([]);
    const closedPort = server.baseUrl;
    await server.close();
    let sleeps = 0;
    const f = new GithubForge({
      token: TOKEN,
      apiBaseUrl: closedPort,
      retry: {
        attempts: 2,
        sleep: async () => {
          sleeps++;
        },
      },
    });
    const error = await f.createOrUpdatePullRequest(input).catch(e => e);
    expect(error.status).toBe(0);
    expect(error.message).toMatch(
      /POST \/repos\/acme\/gitops\/pulls failed: .* \(gave up after 2 attempts\)/,
    );
    expect(error.message).not.toContain(TOKEN);
    expect(sleeps).toBe(1);
    server = await startFakeForgeServer([]);
  });
});
