import { on, startFakeForgeServer } from './__testUtils__/fakeForgeServer';
import { createBareRemote } from '../git/__testUtils__/bareRemote';
import { createForge } from './createForge';
import { DESCRIPTION_FILE, descriptionRef } from './localDescription';
import { localBranchUrl } from './local';

describe('createForge', () => {
  it('builds each kind', () => {
    for (const kind of ['local', 'github', 'gitlab', 'gitea'] as const) {
      expect(createForge(kind).kind).toBe(kind);
    }
  });

  it('rejects unknown kinds by name', () => {
    expect(() => createForge('bitbucket' as any)).toThrow(
      'forge: unknown kind "bitbucket" (expected one of local, github, gitlab, gitea)',
    );
  });

  it('local forge: the PR is the pushed branch, its description stored beside it', async () => {
    const remote = await createBareRemote({ 'a.txt': 'a\n' });
    try {
      await remote.git(['branch', 'gpu/ml-llm', 'main']);
      const forge = createForge('local');
      const input = {
        repoUrl: remote.url,
        baseBranch: 'main',
        headBranch: 'gpu/ml-llm',
        title: 't',
        body: 'b',
      };
      await expect(forge.createOrUpdatePullRequest(input)).resolves.toEqual({
        url: `file://${remote.url}#gpu/ml-llm`,
        updated: false,
      });
      await expect(
        forge.createOrUpdatePullRequest({
          ...input,
          body: 'b2',
          headBranchExisted: true,
        }),
      ).resolves.toEqual({
        url: `file://${remote.url}#gpu/ml-llm`,
        updated: true,
      });
      // The same description again moves nothing (a re-run changes no ref).
      const ref = descriptionRef('gpu/ml-llm');
      const stored = await remote.git(['rev-parse', ref]);
      await new Promise(resolve => setTimeout(resolve, 1100));
      await forge.createOrUpdatePullRequest({
        ...input,
        body: 'b2',
        headBranchExisted: true,
      });
      expect(await remote.git(['rev-parse', ref])).toBe(stored);
      // The newest description replaces the last.
      expect(
        await remote.git([
          'show',
          `${descriptionRef('gpu/ml-llm')}:${DESCRIPTION_FILE}`,
        ]),
      ).toBe('b2');
    } finally {
      await remote.cleanup();
    }
  });

  it('local forge: a relative repository becomes an absolute file URL, a remote keeps its URL', () => {
    expect(localBranchUrl('data/gitops.git', 'gpu/ml-llm')).toBe(
      `file://${process.cwd()}/data/gitops.git#gpu/ml-llm`,
    );
    for (const repoUrl of [
      'https://git.example.com/acme/gitops.git',
      'git@git.example.com:acme/gitops.git',
    ]) {
      expect(localBranchUrl(repoUrl, 'gpu/ml-llm')).toBe(
        `${repoUrl}#gpu/ml-llm`,
      );
    }
  });
});

describe('forge repository override', () => {
  it('lets a forge address owner/repo when the git remote is a local path', async () => {
    const server = await startFakeForgeServer([
      on('POST', '/repos/acme/gitops/pulls', {
        status: 201,
        json: { number: 1, html_url: 'https://github.com/acme/gitops/pull/1' },
      }),
    ]);
    try {
      const forge = createForge('github', {
        token: 'tok-abcdef',
        apiBaseUrl: server.baseUrl,
        repository: 'acme/gitops',
      });
      const result = await forge.createOrUpdatePullRequest({
        repoUrl: '/srv/git/gitops.git',
        baseBranch: 'main',
        headBranch: 'gpu/a-b',
        title: 't',
        body: 'b',
      });
      expect(result.number).toBe(1);
      expect(server.requests[0].url).toBe('/repos/acme/gitops/pulls');
    } finally {
      await server.close();
    }
  });

  it('rejects a malformed repository override', async () => {
    await expect(
      createForge('gitea', {
        repository: 'just-one',
        apiBaseUrl: 'http://127.0.0.1:1',
      }).createOrUpdatePullRequest({
        repoUrl: '/x',
        baseBranch: 'main',
        headBranch: 'h',
        title: 't',
        body: 'b',
      }),
    ).rejects.toThrow('forge repository must be "owner/repo", got "just-one"');
  });
});
