/**
 * Gitea (and Forgejo) pull requests through the REST API v1. Gitea answers a
 * duplicate PR with 409 (older versions: 422); we then find the open PR whose
 * head is our branch and update it.
 */
import { forgeHttpClient, type ForgeOptions } from './forgeClient';
import { ForgeError, forgeErrorMessage, type ForgeHttpClient } from './http';
import { resolveForgeRepo } from './repoPath';
import type {
  Forge,
  PullRequestInput,
  PullRequestResult,
  PullRequestRef,
} from './types';

interface GiteaPull {
  number: number;
  html_url: string;
  head?: { ref?: string };
}

const PAGE_SIZE = 50;
const MAX_PAGES = 20;

/** Gitea marks work-in-progress PRs by title prefix. */
function draftTitle(title: string, draft?: boolean) {
  return draft && !/^(wip|draft):/i.test(title) ? `WIP: ${title}` : title;
}

export class GiteaForge implements Forge {
  readonly kind = 'gitea' as const;
  constructor(private readonly options: ForgeOptions = {}) {}

  private client(repoUrl: string) {
    const repo = resolveForgeRepo(repoUrl, this.options.repository);
    const http = forgeHttpClient(this.options, {
      forgeName: 'Gitea',
      defaultApiBaseUrl: () => `${repo.origin}/api/v1`,
      authorization: t => `token ${t}`,
    });
    return {
      http,
      base: `/repos/${encodeURIComponent(repo.owner)}/${encodeURIComponent(repo.repo)}`,
    };
  }

  async findOpenPullRequest(
    ref: PullRequestRef,
  ): Promise<{ url: string; number: number } | undefined> {
    const { http, base } = this.client(ref.repoUrl);
    const pull = await this.findOpen(http, base, ref.headBranch);
    return pull && { url: pull.html_url, number: pull.number };
  }

  async createOrUpdatePullRequest(
    input: PullRequestInput,
  ): Promise<PullRequestResult> {
    const { http, base } = this.client(input.repoUrl);
    const title = draftTitle(input.title, input.draft);

    const created = await http.request<GiteaPull>(
      'POST',
      `${base}/pulls`,
      {
        head: input.headBranch,
        base: input.baseBranch,
        title,
        body: input.body,
      },
      [409, 422],
    );
    let pull: GiteaPull;
    let updated = false;
    if (created.status === 409 || created.status === 422) {
      const detail = forgeErrorMessage(created.json);
      if (!/already exists/i.test(detail)) {
        throw new ForgeError(
          `Gitea refused the pull request (HTTP ${created.status}): ${detail}`,
          created.status,
        );
      }
      const existing = await this.findOpen(http, base, input.headBranch);
      if (!existing) {
        throw new ForgeError(
          `Gitea says a pull request for ${input.headBranch} exists, but no open one was found`,
          created.status,
        );
      }
      const patched = await http.request<GiteaPull>(
        'PATCH',
        `${base}/pulls/${existing.number}`,
        { title, body: input.body, base: input.baseBranch },
      );
      pull = patched.json ?? existing;
      updated = true;
    } else {
      pull = created.json;
    }
    if (input.labels?.length) {
      // Gitea >= 1.20 accepts label names as well as ids.
      await http.request('POST', `${base}/issues/${pull.number}/labels`, {
        labels: input.labels,
      });
    }
    if (input.reviewers?.length) {
      await http.request(
        'POST',
        `${base}/pulls/${pull.number}/requested_reviewers`,
        {
          reviewers: input.reviewers,
        },
      );
    }
    return { url: pull.html_url, number: pull.number, updated };
  }

  private async findOpen(
    http: ForgeHttpClient,
    base: string,
    branch: string,
  ): Promise<GiteaPull | undefined> {
    for (let page = 1; page <= MAX_PAGES; page++) {
      const list = await http.request<GiteaPull[]>(
        'GET',
        `${base}/pulls?state=open&limit=${PAGE_SIZE}&page=${page}`,
      );
      const found = list.json?.find(p => p.head?.ref === branch);
      if (found) return found;
      if (!list.json || list.json.length < PAGE_SIZE) return undefined;
    }
    return undefined;
  }
}
