/**
 * The open GPU pull requests of the GitOps repository, for the review page
 * and the entity card. Every forge's are request branches (`gpu/*`) not yet
 * merged into the base: git lists them with their descriptions (gpu-node's
 * LocalPullRequests). With the local forge the app is where they are
 * reviewed, merged and closed, so their link is the app's review page; with
 * GitHub, GitLab or Gitea the forge is, so a branch counts only while the
 * forge says its pull request is open, and the link is the forge's.
 *
 * Listing fetches the repository and may ask the forge once per branch, so
 * the answer is kept for a short while (every card of every component page
 * asks); a merge or close here forgets it at once.
 */
import type { GpuPullRequest } from '@gpu-gitops/plugin-gpu-common';
import { pullRequestPageUrl } from '@gpu-gitops/plugin-gpu-common';
import type {
  Forge,
  ForgeKind,
  LocalPullRequest,
  LocalPullRequests,
} from '@gpu-gitops/plugin-gpu-node';

/** How long a listing is reused (card views come in bursts). */
export const LIST_TTL_MS = 10_000;

export class OpenPullRequests {
  private cached: { at: number; list: Promise<GpuPullRequest[]> } | undefined;

  constructor(
    private readonly options: {
      forgeKind: ForgeKind;
      /** The repository's request branches (any forge: plain git). */
      review: LocalPullRequests;
      /** The forge's API, for every kind but local (built per listing: tokens expire). */
      forge?: () => Promise<Forge>;
      repoUrl: string;
      /** `app.baseUrl`: the review page's links. */
      appBaseUrl: string;
      now?: () => number;
    },
  ) {}

  get reviewInApp(): boolean {
    return this.options.forgeKind === 'local';
  }

  /** The open pull requests (cached for LIST_TTL_MS). */
  list(): Promise<GpuPullRequest[]> {
    const now = (this.options.now ?? Date.now)();
    if (!this.cached || now - this.cached.at > LIST_TTL_MS) {
      const list = this.load();
      this.cached = { at: now, list };
      // A failure is not kept: the next view asks again.
      list.catch(() => {
        if (this.cached?.list === list) this.cached = undefined;
      });
    }
    return this.cached.list;
  }

  /** Called after a merge or close: the next listing reads the repository again. */
  forget(): void {
    this.cached = undefined;
  }

  /** The review page's link of a local pull request. */
  pageUrl(branch: string): string {
    return pullRequestPageUrl(branch, this.options.appBaseUrl);
  }

  private async load(): Promise<GpuPullRequest[]> {
    const branches = await this.options.review.list();
    const forge =
      this.reviewInApp || !this.options.forge
        ? undefined
        : await this.options.forge();
    const open: GpuPullRequest[] = [];
    for (const pr of branches) {
      const url = await this.urlOf(pr, forge);
      if (url) open.push({ ...pr, url });
    }
    return open;
  }

  private async urlOf(
    pr: LocalPullRequest,
    forge: Forge | undefined,
  ): Promise<string | undefined> {
    if (!forge) return this.pageUrl(pr.branch);
    const found = await forge.findOpenPullRequest({
      repoUrl: this.options.repoUrl,
      baseBranch: pr.baseBranch,
      headBranch: pr.branch,
    });
    return found?.url;
  }
}
