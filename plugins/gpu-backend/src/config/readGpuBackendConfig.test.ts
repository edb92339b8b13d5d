import { ConfigReader } from '@backstage/config';
import { readGpuBackendConfig } from './readGpuBackendConfig';

const read = (gitops: Record<string, string>) =>
  readGpuBackendConfig(new ConfigReader({ gpu: { gitops } }));

describe('readGpuBackendConfig gpu.gitops', () => {
  it('reads the forge that pairs integration tokens with a git user, local by default', () => {
    expect(read({ repoUrl: '/srv/gitops.git' }).gitops).toEqual(
      expect.objectContaining({ repoUrl: '/srv/gitops.git', forge: 'local' }),
    );
    expect(
      read({
        repoUrl: 'https://gitlab.example.com/p/gitops.git',
        forge: 'gitlab',
      }).gitops?.forge,
    ).toBe('gitlab');
  });

  it('refuses an unknown forge and a repoUrl carrying credentials', () => {
    expect(() =>
      read({ repoUrl: 'https://example.com/gitops.git', forge: 'bitbucket' }),
    ).toThrow(
      'gpu.gitops.forge must be one of local, github, gitlab, gitea, got "bitbucket"',
    );
    expect(() =>
      read({ repoUrl: 'https://bot:secret@example.com/gitops.git' }),
    ).toThrow(
      'must not contain credentials; configure them under integrations',
    );
  });
});
