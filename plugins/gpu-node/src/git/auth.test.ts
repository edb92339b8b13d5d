import { gitEnvironment, isLocalRemote } from './auth';

describe('gitEnvironment', () => {
  it('puts the token in an http.extraHeader via GIT_CONFIG_* for https remotes', () => {
    const env = gitEnvironment('https://github.com/a/b.git', {
      token: 'tok-123456',
    });
    expect(env.GIT_CONFIG_COUNT).toBe('1');
    expect(env.GIT_CONFIG_KEY_0).toBe('http.extraHeader');
    expect(env.GIT_CONFIG_VALUE_0).toBe(
      `Authorization: Basic ${Buffer.from('x-access-token:tok-123456').toString('base64')}`,
    );
    expect(env.GIT_TERMINAL_PROMPT).toBe('0');
  });

  it('uses the configured username (GitLab: oauth2)', () => {
    const env = gitEnvironment('https://gitlab.com/a/b.git', {
      token: 't0k3n',
      username: 'oauth2',
    });
    expect(
      Buffer.from(
        env.GIT_CONFIG_VALUE_0.split(' ').pop()!,
        'base64',
      ).toString(),
    ).toBe('oauth2:t0k3n');
  });

  it('sends no credentials to local remotes or without a token', () => {
    expect(
      gitEnvironment('/srv/git/gitops.git', { token: 'tok-123456' })
        .GIT_CONFIG_COUNT,
    ).toBeUndefined();
    expect(
      gitEnvironment('file:///srv/git/gitops.git', { token: 'tok' })
        .GIT_CONFIG_COUNT,
    ).toBeUndefined();
    expect(
      gitEnvironment('https://h/a/b', {}).GIT_CONFIG_COUNT,
    ).toBeUndefined();
  });

  it('does not inherit variables that could redirect git', () => {
    const saved = { ...process.env };
    process.env.GIT_DIR = '/elsewhere';
    process.env.EDITOR = 'vim';
    try {
      const env = gitEnvironment('/x', {});
      expect(env.GIT_DIR).toBeUndefined();
      expect(env.EDITOR).toBeUndefined();
      expect(env.PATH).toBe(process.env.PATH);
    } finally {
      process.env = saved;
    }
  });

  it('classifies local remotes', () => {
    expect(isLocalRemote('/srv/x.git')).toBe(true);
    expect(isLocalRemote('file:///srv/x.git')).toBe(true);
    expect(isLocalRemote('https://h/x.git')).toBe(false);
  });
});
