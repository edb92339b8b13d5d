import { promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { BareRemote, createBareRemote } from '../git/__testUtils__/bareRemote';
import { publishGpuRequest } from '../publish/publishGpuRequest';
import {
  catalog,
  cluster,
  gpuRequest,
  seedFiles,
} from '../publish/__testUtils__/fixtures';
import { createForge } from './createForge';
import { descriptionRef } from './localDescription';
import { LocalPullRequests } from './localPullRequests';
import { LocalPullRequestError } from './localPullRequestTypes';

describe('LocalPullRequests (review for the local forge, on a real bare repository)', () => {
  let remote: BareRemote;
  let cacheDir: string;
  let review: LocalPullRequests;

  beforeEach(async () => {
    remote = await createBareRemote({
      'README.md': 'GitOps\n',
      'clusters/dev/values.yaml': 'replicas: 1\n',
    });
    cacheDir = await fs.mkdtemp(path.join(os.tmpdir(), 'gpu-review-'));
    review = new LocalPullRequests({ repoUrl: remote.url, cacheDir });
  });
  afterEach(async () => {
    await remote.cleanup();
    await fs.rm(cacheDir, { recursive: true, force: true });
  });

  /** A request branch off main, as the publisher pushes it, with its description as the local forge stores it. */
  async function openPullRequest(
    name: string,
    files: Record<string, string>,
    describe = true,
  ): Promise<string> {
    const branch = `gpu/ml-${name}`;
    await remote.git(['branch', branch, 'main']);
    const head = await remote.commitFiles(
      files,
      `GPU: ml/${name}\n\nThe commit message.\n\nGpu-Request: ml/${name}`,
      branch,
    );
    if (describe) {
      await createForge('local').createOrUpdatePullRequest({
        repoUrl: remote.url,
        baseBranch: 'main',
        headBranch: branch,
        title: `GPU: ml/${name} on a T4`,
        body: `## ${name}\n\n| replicas | 2 |\n`,
      });
    }
    return head;
  }

  const refs = async () =>
    (await remote.git(['for-each-ref', '--format=%(refname)'])).trim();

  it('lists open request branches with the description the forge stored, the files and whether they merge', async () => {
    const head = await openPullRequest('chat', {
      'apps/ml/chat/deployment.yaml': 'kind: Deployment\n',
      'clusters/dev/values.yaml': 'replicas: 2\n',
    });
    // Not a request branch, and one already merged: neither is open.
    await remote.commitFiles({ 'x.txt': 'x' }, 'other', 'feature/x');
    await remote.git(['branch', 'gpu/ml-old', 'main']);

    const [pr, ...others] = await review.list();
    expect(others).toEqual([]);
    expect(pr).toMatchObject({
      branch: 'gpu/ml-chat',
      baseBranch: 'main',
      title: 'GPU: ml/chat on a T4',
      body: '## chat\n\n| replicas | 2 |\n',
      head,
      request: { namespace: 'ml', name: 'chat' },
      mergeable: { clean: true },
      files: [
        { path: 'apps/ml/chat/deployment.yaml', status: 'added' },
        { path: 'clusters/dev/values.yaml', status: 'modified' },
      ],
    });
    expect(Date.parse(pr.updatedAt)).not.toBeNaN();
  });

  it('a branch without a stored description reads as its commit message, trailer left out', async () => {
    await openPullRequest('bare', { 'a.txt': 'a\n' }, false);
    const [pr] = await review.list();
    expect(pr.title).toBe('GPU: ml/bare');
    expect(pr.body).toBe('The commit message.');
  });

  it('shows the diff against the base', async () => {
    await openPullRequest('chat', {
      'clusters/dev/values.yaml': 'replicas: 2\n',
    });
    const pr = await review.get('gpu/ml-chat');
    expect(pr.diff).toContain('--- a/clusters/dev/values.yaml');
    expect(pr.diff).toContain('-replicas: 1\n+replicas: 2');
    expect(pr.diffTruncated).toBe(false);
    await expect(review.get('gpu/ml-none')).rejects.toMatchObject({
      kind: 'not-found',
    });
  });

  it('merges with a merge commit on main that records who merged, and removes the branch and its description', async () => {
    const base = await remote.branchSha('main');
    const head = await openPullRequest('chat', {
      'clusters/dev/values.yaml': 'replicas: 2\n',
    });
    const commit = await review.merge('gpu/ml-chat', {
      head,
      decidedBy: 'user:default/guest',
    });

    expect(await remote.branchSha('main')).toBe(commit);
    expect(
      (await remote.git(['log', '-1', '--format=%P', 'main'])).trim(),
    ).toBe(`${base} ${head}`);
    expect(await remote.git(['log', '-1', '--format=%B', 'main'])).toContain(
      'Merge pull request gpu/ml-chat: GPU: ml/chat on a T4\n\nMerged-by: user:default/guest',
    );
    expect(await remote.readFile('main', 'clusters/dev/values.yaml')).toBe(
      'replicas: 2\n',
    );
    expect(await refs()).not.toContain('gpu/ml-chat');
    expect(await review.list()).toEqual([]);
  });

  it('refuses a merge that conflicts, naming the files, and changes nothing', async () => {
    const first = await openPullRequest('first', {
      'clusters/dev/values.yaml': 'replicas: 2\n',
    });
    const second = await openPullRequest('second', {
      'clusters/dev/values.yaml': 'replicas: 3\n',
      'apps/ml/second.yaml': 'kind: Deployment\n',
    });
    await review.merge('gpu/ml-first', { head: first, decidedBy: 'user:a' });
    const main = await remote.branchSha('main');

    const [listed] = await review.list();
    expect(listed.mergeable).toEqual({
      clean: false,
      conflicts: ['clusters/dev/values.yaml'],
    });
    const error = await review
      .merge('gpu/ml-second', { head: second, decidedBy: 'user:a' })
      .catch(e => e);
    expect(error).toBeInstanceOf(LocalPullRequestError);
    expect(error.kind).toBe('conflict');
    expect(error.conflicts).toEqual(['clusters/dev/values.yaml']);
    expect(error.message).toContain(
      'gpu/ml-second does not merge cleanly into main: clusters/dev/values.yaml changed on both sides',
    );
    expect(await remote.branchSha('main')).toBe(main);
    expect(await remote.branchSha('gpu/ml-second')).toBe(second);
  });

  it('never merges or closes a head the reviewer did not see', async () => {
    const seen = await openPullRequest('chat', { 'a.txt': 'a\n' });
    await remote.commitFiles({ 'b.txt': 'b\n' }, 'later push', 'gpu/ml-chat');
    const main = await remote.branchSha('main');
    for (const decide of [
      () => review.merge('gpu/ml-chat', { head: seen, decidedBy: 'user:a' }),
      () => review.close('gpu/ml-chat', { head: seen, decidedBy: 'user:a' }),
    ]) {
      const error = await decide().catch(e => e);
      expect(error.kind).toBe('moved');
      expect(error.message).toMatch(/changed since you looked/);
    }
    expect(await remote.branchSha('main')).toBe(main);
    expect(await remote.branchSha('gpu/ml-chat')).toBeDefined();
  });

  it('closes: the branch and its description are gone, main is untouched', async () => {
    const main = await remote.branchSha('main');
    const head = await openPullRequest('chat', { 'a.txt': 'a\n' });
    expect(await refs()).toContain(descriptionRef('gpu/ml-chat'));
    await review.close('gpu/ml-chat', { head, decidedBy: 'user:a' });
    expect(await remote.branchSha('main')).toBe(main);
    expect(await refs()).not.toContain('gpu/ml-chat');
    await expect(
      review.close('gpu/ml-chat', { head, decidedBy: 'user:a' }),
    ).rejects.toMatchObject({ kind: 'not-found' });
  });
});

describe('the local forge stores the description the publisher renders', () => {
  let remote: BareRemote;
  let cacheDir: string;

  beforeEach(async () => {
    remote = await createBareRemote(seedFiles);
    cacheDir = await fs.mkdtemp(path.join(os.tmpdir(), 'gpu-review-pub-'));
  });
  afterEach(async () => {
    await remote.cleanup();
    await fs.rm(cacheDir, { recursive: true, force: true });
  });

  it('a published request is an open pull request with the same title and body', async () => {
    const published = await publishGpuRequest({
      request: gpuRequest('llm'),
      cluster,
      catalog,
      repoUrl: remote.url,
      forge: 'local',
      cacheDir: path.join(cacheDir, 'publish'),
    });
    const review = new LocalPullRequests({
      repoUrl: remote.url,
      cacheDir: path.join(cacheDir, 'review'),
    });
    const [pr] = await review.list();
    expect(pr).toMatchObject({
      branch: published.branch,
      head: published.commit,
      title: published.title,
      body: published.body,
      request: { namespace: 'ml', name: 'llm' },
      mergeable: { clean: true },
    });
    expect(pr.files.map(f => f.path).sort()).toEqual(published.files);
  });
});
