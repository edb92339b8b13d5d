import { isGpuInputError, type InputIssue } from '../errors';
import {
  checkGitOpsRepoUrl,
  redactRepoUrl,
  repoUrlCarriesCredentials,
} from './repoUrl';

const CANARY = 'canary-url-token-7f3e9a1c';

function refusal(url: string, field?: string): InputIssue[] {
  try {
    checkGitOpsRepoUrl(url, field);
  } catch (error) {
    if (isGpuInputError(error)) return error.issues;
    throw error;
  }
  throw new Error(`${url} was accepted`);
}

describe('checkGitOpsRepoUrl', () => {
  it('accepts https, http, file URLs and local paths, and says which it is', () => {
    expect(checkGitOpsRepoUrl('https://github.com/acme/gitops.git')).toBe(
      'http',
    );
    expect(checkGitOpsRepoUrl('http://127.0.0.1:8080/gitops.git')).toBe('http');
    expect(checkGitOpsRepoUrl('HTTPS://gitlab.example.com/a/b/c')).toBe('http');
    expect(checkGitOpsRepoUrl('file:///srv/git/gitops.git')).toBe('file');
    expect(checkGitOpsRepoUrl('/srv/git/gitops.git')).toBe('path');
    expect(checkGitOpsRepoUrl('./gitops.git')).toBe('path');
    expect(checkGitOpsRepoUrl('gitops.git')).toBe('path');
    // A colon after the first slash is part of a path, for git too.
    expect(checkGitOpsRepoUrl('./repos/a:b.git')).toBe('path');
    expect(checkGitOpsRepoUrl('C:\\repos\\gitops.git')).toBe('path');
  });

  it.each([
    [
      'https user:token',
      `https://x-access-token:${CANARY}@github.com/acme/gitops.git`,
    ],
    ['https token', `https://${CANARY}@github.com/acme/gitops.git`],
    ['http user:token', `http://user:${CANARY}@127.0.0.1:3000/gitops.git`],
    ['file token', `file://${CANARY}@localhost/srv/gitops.git`],
  ])('refuses user-info (%s) and never shows it', (_form, url) => {
    const issues = refusal(url, '--repo');
    expect(issues.map(i => i.rule)).toEqual(['url-credentials']);
    expect(issues[0].path).toBe('--repo');
    expect(issues[0].message).toContain('***@');
    expect(JSON.stringify(issues)).not.toContain(CANARY);
  });

  it.each([
    [
      'an access_token',
      `https://github.com/acme/gitops.git?access_token=${CANARY}`,
    ],
    ['a harmless query', `https://github.com/acme/gitops.git?ref=main`],
    ['a fragment', `https://github.com/acme/gitops.git#${CANARY}`],
    ['a file URL query', `file:///srv/gitops.git?private_token=${CANARY}`],
  ])('refuses a query string or fragment (%s)', (_form, url) => {
    const issues = refusal(url);
    expect(issues.map(i => i.rule)).toEqual(['url-query']);
    expect(issues[0].path).toBe('repoUrl');
    expect(JSON.stringify(issues)).not.toContain(CANARY);
  });

  it('refuses ssh and git schemes, suggesting the https URL without the credentials', () => {
    const ssh = refusal('ssh://git@github.com:22/acme/gitops.git');
    expect(ssh.map(i => i.rule)).toEqual(['url-credentials', 'url-scheme']);
    expect(ssh[1].message).toContain('use https://github.com/acme/gitops.git');
    expect(ssh[1].message).toMatch(/token is sent in an HTTP header/);

    const git = refusal(
      `git://user:${CANARY}@git.example.com/acme/gitops.git?token=${CANARY}`,
      'gpu.gitops.repoUrl',
    );
    expect(git.map(i => i.rule)).toEqual([
      'url-credentials',
      'url-scheme',
      'url-query',
    ]);
    expect(git.every(i => i.path === 'gpu.gitops.repoUrl')).toBe(true);
    expect(git[1].message).toContain(
      'use https://git.example.com/acme/gitops.git',
    );
    expect(JSON.stringify(git)).not.toContain(CANARY);

    expect(refusal('ftp://host/gitops.git').map(i => i.rule)).toEqual([
      'url-scheme',
    ]);
  });

  it('refuses scp-style addresses, masking the user part', () => {
    const scp = refusal(`${CANARY}@github.com:acme/gitops.git`);
    expect(scp.map(i => i.rule)).toEqual(['url-credentials', 'url-scheme']);
    expect(scp[1].message).toContain('scp-style');
    expect(scp[1].message).toContain('use https://github.com/acme/gitops.git');
    expect(JSON.stringify(scp)).not.toContain(CANARY);
    expect(refusal('github.com:acme/gitops.git').map(i => i.rule)).toEqual([
      'url-scheme',
    ]);
    expect(refusal('[::1]:gitops.git').map(i => i.rule)).toEqual([
      'url-scheme',
    ]);
  });

  it('refuses remote helpers, hostless URLs, control characters and empty values', () => {
    expect(refusal('ext::sh -c touch% /tmp/pwned').map(i => i.rule)).toEqual([
      'url-scheme',
    ]);
    expect(refusal('https:///gitops.git').map(i => i.rule)).toEqual([
      'url-host',
    ]);
    expect(
      refusal('https://github.com/acme/gitops.git\n').map(i => i.rule),
    ).toEqual(['url-characters']);
    expect(refusal('').map(i => i.rule)).toEqual(['required']);
  });
});

describe('redactRepoUrl', () => {
  it('masks the credentials of a URL pasted with white space around it', () => {
    const padded = ` https://user:${CANARY}@github.com/acme/gitops.git`;
    expect(redactRepoUrl(padded)).toBe(
      ' https://***@github.com/acme/gitops.git',
    );
    expect(redactRepoUrl(`\t${padded}`)).toBe(
      '\\x09 https://***@github.com/acme/gitops.git',
    );
    const issues = refusal(padded);
    expect(issues.map(i => i.rule)).toEqual([
      'url-characters',
      'url-credentials',
    ]);
    expect(JSON.stringify(issues)).not.toContain(CANARY.slice(0, 6));
    expect(JSON.stringify(issues)).not.toContain(CANARY.slice(-6));
  });

  it('masks every part that may hold a credential and keeps the rest', () => {
    expect(
      redactRepoUrl(
        `https://u:${CANARY}@h.example/o/r.git?access_token=${CANARY}#x`,
      ),
    ).toBe('https://***@h.example/o/r.git?***#***');
    expect(redactRepoUrl(`${CANARY}@h.example:o/r.git`)).toBe(
      '***@h.example:o/r.git',
    );
    expect(redactRepoUrl(`ext::${CANARY}`)).toBe('ext::***');
    expect(redactRepoUrl('https://h.example/o/r.git')).toBe(
      'https://h.example/o/r.git',
    );
    expect(redactRepoUrl('/srv/gitops.git')).toBe('/srv/gitops.git');
  });
});

describe('repoUrlCarriesCredentials', () => {
  it.each([
    `https://x-access-token:${CANARY}@github.com/acme/gitops`,
    `https://${CANARY}@github.com/acme/gitops`,
    'https://@github.com/acme/gitops',
    `ssh://git@github.com/acme/gitops`,
    `${CANARY}@github.com:acme/gitops.git`,
  ])('says yes for %s, as checkGitOpsRepoUrl refuses it', url => {
    expect(repoUrlCarriesCredentials(url)).toBe(true);
    expect(refusal(url).map(i => i.rule)).toContain('url-credentials');
  });

  it.each([
    'https://github.com/acme/gitops',
    'https://github.com/acme/gitops?access_token=x',
    'file:///srv/gitops.git',
    '/srv/gitops.git',
    'C:\\gitops',
    'github.com:acme/gitops.git',
    'git::https://host/x',
  ])('says no for %s', url => {
    expect(repoUrlCarriesCredentials(url)).toBe(false);
  });
});
