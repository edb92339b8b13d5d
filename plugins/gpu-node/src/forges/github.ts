/**
 * GitHub (and GitHub Enterprise Server) pull requests through the REST API.
 * Idempotent: a re-run finds the open PR for the branch and updates it, as
 * the re-run of `publish:github:pull-request` users keep asking for
 * (backstage#17911).
 */
import { forgeHttpClient, type ForgeOptions } from './forgeClient';
import { ForgeError, type ForgeHttpClient } from './http';
import { parseForgeRepoUrl, resolveForgeRepo } from './repoPath';
import type {
  Forge,
  PullRequestInput,
  PullRequestRef,
  PullRequestResult,
} from './types';

interface GithubPull {
  number: number;
  html_url: string;
}

export function githubApiBaseUrl(repoUrl: string): string {
  const { origin, host } = parseForgeRepoUrl(repoUrl);
  return host === 'github.com' ? 'https://api.github.com' : `${origin}/api/v3`;
}

export class GithubForge implements Forge {
  readonly kind = 'github' as const;
  constructor(private readonly options: ForgeOptions = {}) {}

  private client(repoUrl: string) {
    const { owner, repo } = resolveForgeRepo(repoUrl, this.options.repository);
    const http = forgeHttpClient(this.options, {
      forgeName: 'GitHub',
      defaultApiBaseUrl: () => githubApiBaseUrl(repoUrl),
      authorization: t => `Bearer ${t}`,
      extraHeaders: {
        accept: 'application/vnd.github+json',
        'x-github-api-version': '2022-11-28',
      },
    });
    return {
      http,
      owner,
      base: `/repos/${encodeURIComponent(owner)}/${encodeURIComponent(repo)}`,
    };
  }

  private async openPull(
    http: ForgeHttpClient,
    base: string,
    owner: string,
    branch: string,
  ): Promise<GithubPull | undefined> {
    const head = `${owner.split('/')[0]}:${branch}`;
    const open = await http.request<GithubPull[]>(
      'GET',
      `${base}/pulls?head=${encodeURIComponent(head)}&state=open`,
    );
    return open.json?.[0];
  }

  async findOpenPullRequest(
    ref: PullRequestRef,
  ): Promise<{ url: string; number: number } | undefined> {
    const { http, base, owner } = this.client(ref.repoUrl);
    const pull = await this.openPull(http, base, owner, ref.headBranch);
    return pull && { url: pull.html_url, number: pull.number };
  }

  async createOrUpdatePullRequest(
    input: PullRequestInput,
  ): Promise<PullRequestResult> {
    const { http, base, owner } = this.client(input.repoUrl);

    const created = await http.request<GithubPull>(
      'POST',
      `${base}/pulls`,
      {
        title: input.title,
        head: input.headBranch,
        base: input.baseBranch,
        body: input.body,
        draft: input.draft ?? false,
        maintainer_can_modify: true,
      },
      [422],
    );

    let pull: GithubPull;
    let updated = false;
    if (created.status === 422) {
      if (!isAlreadyExists(created.json)) {
        throw new ForgeError(
          `GitHub refused the pull request (HTTP 422): ${describe422(created.json)}`,
          422,
        );
      }
      const existing = await this.openPull(http, base, owner, input.headBranch);
      if (!existing) {
        throw new ForgeError(
          `GitHub says a pull request for ${input.headBranch} exists, but no open one was found for ${owner.split('/')[0]}:${input.headBranch}`,
          422,
        );
      }
      // Draft state cannot be changed through REST; title, body and base can.
      const patched = await http.request<GithubPull>(
        'PATCH',
        `${base}/pulls/${existing.number}`,
        { title: input.title, body: input.body, base: input.baseBranch },
      );
      pull = patched.json ?? existing;
      updated = true;
    } else {
      pull = created.json;
    }

    if (input.labels?.length) {
      await http.request('POST', `${base}/issues/${pull.number}/labels`, {
        labels: input.labels,
      });
    }
    if (input.reviewers?.length) {
      await http.request(
        'POST',
        `${base}/pulls/${pull.number}/requested_reviewers`,
        { reviewers: input.reviewers },
      );
    }
    return { url: pull.html_url, number: pull.number, updated };
  }
}

function isAlreadyExists(json: any): boolean {
  const texts = [
    json?.message,
    ...(Array.isArray(json?.errors)
      ? json.errors.map((e: any) => (typeof e === 'string' ? e : e?.message))
      : []),
  ];
  return texts.some(
    t => typeof t === 'string' && /pull request already exists/i.test(t),
  );
}

function describe422(json: any): string {
  const errors: string[] = Array.isArray(json?.errors)
    ? json.errors.map((e: any) =>
        typeof e === 'string'
          ? e
          : (e?.message ??
            `${e?.resource ?? ''} ${e?.field ?? ''} ${e?.code ?? ''}`.trim()),
      )
    : [];
  return (
    [json?.message, ...errors].filter(Boolean).join(': ') || 'validation failed'
  );
}
