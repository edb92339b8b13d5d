/**
 * The embedded default forge: a plain git remote (a local bare repository or
 * any git URL) with no API. The pushed branch is the pull request; reviewers
 * read the PR body from the task output.
 */
import type { Forge, PullRequestInput, PullRequestResult } from './types';

export class LocalForge implements Forge {
  readonly kind = 'local' as const;

  async createOrUpdatePullRequest(
    input: PullRequestInput,
  ): Promise<PullRequestResult> {
    return {
      url: `${input.repoUrl}#${input.headBranch}`,
      updated: input.headBranchExisted ?? false,
    };
  }
}
