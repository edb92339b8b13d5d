/**
 * The embedded default forge: a plain git remote (a local bare repository or
 * any git URL) with no API. The pushed branch is the pull request; reviewers
 * read the PR body from the task output.
 */
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type {
  Forge,
  PullRequestInput,
  PullRequestRef,
  PullRequestResult,
} from './types';

/** `https://…`, `ssh://…` or scp-like `git@host:path`: a remote, not a folder. */
function isRemoteUrl(repoUrl: string): boolean {
  return (
    /^[a-z][a-z0-9+.-]*:\/\//i.test(repoUrl) || /^[^/@]+@[^/:]+:/.test(repoUrl)
  );
}

/**
 * Where the branch lives, as a URL: a local repository becomes a `file://`
 * URL (a bare path in the scaffolder's output link would be taken for a
 * route of the app), a remote keeps its URL.
 */
export function localBranchUrl(repoUrl: string, branch: string): string {
  const base = isRemoteUrl(repoUrl)
    ? repoUrl
    : pathToFileURL(path.resolve(repoUrl)).href;
  return `${base}#${branch}`;
}

export class LocalForge implements Forge {
  readonly kind = 'local' as const;

  /**
   * A plain git remote has no pull request state: a pushed request branch is
   * open until someone merges or deletes it (the updater tells a merged one
   * by the base already holding its request).
   */
  async findOpenPullRequest(ref: PullRequestRef): Promise<{ url: string }> {
    return { url: localBranchUrl(ref.repoUrl, ref.headBranch) };
  }

  async createOrUpdatePullRequest(
    input: PullRequestInput,
  ): Promise<PullRequestResult> {
    return {
      url: localBranchUrl(input.repoUrl, input.headBranch),
      updated: input.headBranchExisted ?? false,
    };
  }
}
