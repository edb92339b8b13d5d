/**
 * The embedded default forge: a plain git remote (a local bare repository or
 * any git URL) with no API. The pushed branch is the pull request; its
 * description is kept beside it in the repository (localDescription.ts),
 * where the gpu backend's review page reads it (localPullRequests.ts).
 */
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Redactor } from '../redact';
import { writeLocalDescription } from './localDescription';
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

export interface LocalForgeOptions {
  /** For an HTTP(S) remote: the token git sends (in a header, never the URL). */
  token?: string;
  /** Basic-auth user paired with the token (default `x-access-token`). */
  tokenUsername?: string;
  /** Limit of the git commands that store the description (default 60 s). */
  timeoutMs?: number;
  redactor?: Redactor;
}

export class LocalForge implements Forge {
  readonly kind = 'local' as const;

  constructor(private readonly options: LocalForgeOptions = {}) {}

  /**
   * A plain git remote has no pull request state: a pushed request branch is
   * open until someone merges or deletes it (the updater tells a merged one
   * by the base already holding its request).
   */
  async findOpenPullRequest(ref: PullRequestRef): Promise<{ url: string }> {
    return { url: localBranchUrl(ref.repoUrl, ref.headBranch) };
  }

  /** The branch is already pushed: stores its title and description beside it. */
  async createOrUpdatePullRequest(
    input: PullRequestInput,
  ): Promise<PullRequestResult> {
    await writeLocalDescription({
      repoUrl: input.repoUrl,
      branch: input.headBranch,
      title: input.title,
      body: input.body,
      auth: { token: this.options.token, username: this.options.tokenUsername },
      timeoutMs: this.options.timeoutMs,
      redactor: this.options.redactor,
    });
    return {
      url: localBranchUrl(input.repoUrl, input.headBranch),
      updated: input.headBranchExisted ?? false,
    };
  }
}
