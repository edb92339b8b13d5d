import { ConfigReader } from '@backstage/config';
import { ScmIntegrations } from '@backstage/integration';
import {
  gitTokenUsername,
  remoteHost,
  resolveGitCredentials,
} from './resolveGitCredentials';

const integrations = ScmIntegrations.fromConfig(
  new ConfigReader({
    integrations: {
      github: [{ host: 'github.example.com', token: 'ghp_integration' }],
      gitlab: [
        {
          host: 'gitlab.example.com',
          apiBaseUrl: 'https://gitlab.example.com/api/v4',
          token: 'glpat-integration',
        },
      ],
      gitea: [
        {
          host: 'gitea.example.com',
          username: 'bot',
          password: 'gitea-secret',
        },
      ],
    },
  }),
);

describe('resolveGitCredentials', () => {
  it('finds the remote host, and none for local repositories', () => {
    expect(remoteHost('https://github.example.com/org/gitops.git')).toBe(
      'github.example.com',
    );
    expect(remoteHost('/srv/git/gitops.git')).toBeUndefined();
    expect(remoteHost('file:///srv/git/gitops.git')).toBeUndefined();
  });

  it('takes the token of the integration for the repository host', async () => {
    await expect(
      resolveGitCredentials({
        repoUrl: 'https://github.example.com/org/gitops',
        forge: 'github',
        integrations,
      }),
    ).resolves.toEqual({ token: 'ghp_integration', source: 'integration' });
    await expect(
      resolveGitCredentials({
        repoUrl: 'https://gitlab.example.com/org/gitops.git',
        forge: 'gitlab',
        integrations,
      }),
    ).resolves.toEqual({ token: 'glpat-integration', source: 'integration' });
    await expect(
      resolveGitCredentials({
        repoUrl: 'https://gitea.example.com/org/gitops.git',
        forge: 'gitea',
        integrations,
      }),
    ).resolves.toEqual({
      token: 'gitea-secret',
      username: 'bot',
      source: 'integration',
    });
  });

  it('prefers a user token given as input', async () => {
    await expect(
      resolveGitCredentials({
        repoUrl: 'https://gitlab.example.com/org/gitops.git',
        forge: 'gitlab',
        integrations,
        userToken: 'user-oauth',
      }),
    ).resolves.toEqual({ token: 'user-oauth', source: 'input' });
  });

  it('uses no credentials for a local bare repository or an unknown host', async () => {
    await expect(
      resolveGitCredentials({
        repoUrl: '/tmp/gitops.git',
        forge: 'local',
        integrations,
      }),
    ).resolves.toEqual({ source: 'none' });
    await expect(
      resolveGitCredentials({
        repoUrl: 'https://git.unknown.example/org/gitops.git',
        forge: 'gitea',
        integrations,
      }),
    ).resolves.toEqual({ source: 'none' });
  });
});

describe('gitTokenUsername', () => {
  it('pairs the token with the integration user, oauth2 for GitLab, else git default', () => {
    expect(
      gitTokenUsername('gitea', {
        token: 't',
        username: 'bot',
        source: 'integration',
      }),
    ).toBe('bot');
    expect(
      gitTokenUsername('gitlab', { token: 't', source: 'integration' }),
    ).toBe('oauth2');
    expect(
      gitTokenUsername('github', { token: 't', source: 'integration' }),
    ).toBeUndefined();
  });
});
