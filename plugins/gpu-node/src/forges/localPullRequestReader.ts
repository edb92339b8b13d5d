/**
 * Reads one open pull request of the local forge from the review cache: its
 * title and body (the stored description, else the commit message), the
 * request it carries or releases (its `Gpu-Request` / `Gpu-Release`
 * trailer), whether it merges, and
 * which files it touches.
 */
import {
  GPU_BRANCH_PREFIX,
  type GpuPullRequestFile,
} from '@gpu-gitops/plugin-gpu-common';
import { readTrailer } from '../git/branchName';
import { DESCRIPTION_FILE, descriptionRef } from './localDescription';
import type { LocalPullRequest } from './localPullRequestTypes';
import type { LocalReviewCache } from './localReviewCache';

/** An open pull request of `branch`, or undefined (no such branch, or merged). */
export async function describePullRequest(
  cache: LocalReviewCache,
  branch: string,
  base: string,
): Promise<LocalPullRequest | undefined> {
  if (!branch.startsWith(GPU_BRANCH_PREFIX)) return undefined;
  const head = await cache.resolve(`refs/heads/${branch}`);
  if (!head) return undefined;
  if (await cache.isAncestor(head, base)) return undefined;
  const [date, ...messageLines] = (
    await cache.git(['log', '-1', '--format=%cI%n%B', head])
  ).split('\n');
  const message = messageLines.join('\n');
  const trailer = readTrailer(message);
  const description = await storedDescription(cache, branch);
  const [subject, ...rest] = message.trim().split('\n');
  const merged = await cache.mergeTree(base, head);
  return {
    branch,
    baseBranch: cache.baseBranch,
    // Without a stored description (a branch pushed by hand): the commit's message.
    title: description?.title ?? subject,
    body:
      description?.body ??
      rest
        .filter(line => !readTrailer(line))
        .join('\n')
        .trim(),
    head,
    // A release is about its request too: the card lists it beside it.
    ...(trailer
      ? { request: { namespace: trailer.namespace, name: trailer.name } }
      : {}),
    updatedAt: date,
    mergeable: merged.clean
      ? { clean: true }
      : { clean: false, conflicts: merged.conflicts },
    files: await changedFiles(cache, base, head),
  };
}

async function storedDescription(
  cache: LocalReviewCache,
  branch: string,
): Promise<{ title: string; body: string } | undefined> {
  const ref = await cache.resolve(descriptionRef(branch));
  if (!ref) return undefined;
  const title = (await cache.git(['log', '-1', '--format=%s', ref])).trim();
  const body = await cache.git([
    'cat-file',
    'blob',
    `${ref}:${DESCRIPTION_FILE}`,
  ]);
  return { title, body };
}

async function changedFiles(
  cache: LocalReviewCache,
  base: string,
  head: string,
): Promise<GpuPullRequestFile[]> {
  const listing = await cache.git([
    'diff',
    '--name-status',
    '--no-renames',
    `${base}...${head}`,
  ]);
  const status = { A: 'added', D: 'deleted' } as const;
  return listing
    .split('\n')
    .filter(Boolean)
    .map(line => {
      const [code, file] = line.split('\t');
      return {
        path: file,
        status: status[code as keyof typeof status] ?? 'modified',
      };
    });
}
