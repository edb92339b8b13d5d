import { createForge } from './createForge';

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

  it('local forge: the PR is the pushed branch', async () => {
    const forge = createForge('local');
    const input = {
      repoUrl: '/srv/git/gitops.git',
      baseBranch: 'main',
      headBranch: 'gpu/ml-llm',
      title: 't',
      body: 'b',
    };
    await expect(forge.createOrUpdatePullRequest(input)).resolves.toEqual({
      url: '/srv/git/gitops.git#gpu/ml-llm',
      updated: false,
    });
    await expect(
      forge.createOrUpdatePullRequest({ ...input, headBranchExisted: true }),
    ).resolves.toEqual({
      url: '/srv/git/gitops.git#gpu/ml-llm',
      updated: true,
    });
  });
});
