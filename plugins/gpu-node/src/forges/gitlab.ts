/**
 * GitLab merge requests through the REST API v4. The project is addressed by
 * its URL-encoded path (`group%2Fsub%2Frepo`), so no project id lookup is
 * needed. A second MR for the same source branch is refused with 409; we then
 * update the open one.
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

interface GitlabMergeRequest {
  iid: number;
  web_url: string;
}

/** GitLab marks drafts by title prefix. */
function draftTitle(title: string, draft?: boolean) {
  return draft && !/^draft:/i.test(title) ? `Draft: ${title}` : title;
}

export class GitlabForge implements Forge {
  readonly kind = 'gitlab' as const;
  constructor(private readonly options: ForgeOptions = {}) {}

  private client(repoUrl: string) {
    const repo = resolveForgeRepo(repoUrl, this.options.repository);
    const http = forgeHttpClient(this.options, {
      forgeName: 'GitLab',
      defaultApiBaseUrl: () => `${repo.origin}/api/v4`,
      authorization: t => `Bearer ${t}`,
    });
    return { http, project: `/projects/${encodeURIComponent(repo.fullPath)}` };
  }

  private async openMergeRequest(
    http: ForgeHttpClient,
    project: string,
    branch: string,
  ): Promise<GitlabMergeRequest | undefined> {
    const open = await http.request<GitlabMergeRequest[]>(
      'GET',
      `${project}/merge_requests?source_branch=${encodeURIComponent(
        branch,
      )}&state=opened`,
    );
    return open.json?.[0];
  }

  async findOpenPullRequest(
    ref: PullRequestRef,
  ): Promise<{ url: string; number: number } | undefined> {
    const { http, project } = this.client(ref.repoUrl);
    const mr = await this.openMergeRequest(http, project, ref.headBranch);
    return mr && { url: mr.web_url, number: mr.iid };
  }

  async createOrUpdatePullRequest(
    input: PullRequestInput,
  ): Promise<PullRequestResult> {
    const { http, project } = this.client(input.repoUrl);

    const reviewerIds: number[] = [];
    for (const username of input.reviewers ?? []) {
      const users = await http.request<Array<{ id: number }>>(
        'GET',
        `/users?username=${encodeURIComponent(username)}`,
      );
      if (!users.json?.[0]) {
        throw new ForgeError(
          `GitLab has no user named "${username}" (reviewers)`,
          404,
        );
      }
      reviewerIds.push(users.json[0].id);
    }

    const fields = {
      title: draftTitle(input.title, input.draft),
      description: input.body,
      target_branch: input.baseBranch,
      ...(input.labels?.length ? { labels: input.labels.join(',') } : {}),
      ...(reviewerIds.length ? { reviewer_ids: reviewerIds } : {}),
    };
    const created = await http.request<GitlabMergeRequest>(
      'POST',
      `${project}/merge_requests`,
      {
        source_branch: input.headBranch,
        remove_source_branch: true,
        ...fields,
      },
      [409, 422],
    );
    if (created.status === 201 || created.status === 200) {
      return {
        url: created.json.web_url,
        number: created.json.iid,
        updated: false,
      };
    }
    const detail = forgeErrorMessage(created.json);
    if (!/already exists/i.test(detail)) {
      throw new ForgeError(
        `GitLab refused the merge request (HTTP ${created.status}): ${detail}`,
        created.status,
      );
    }
    const existing = await this.openMergeRequest(
      http,
      project,
      input.headBranch,
    );
    if (!existing) {
      throw new ForgeError(
        `GitLab says a merge request for ${input.headBranch} exists, but no open one was found`,
        created.status,
      );
    }
    const put = await http.request<GitlabMergeRequest>(
      'PUT',
      `${project}/merge_requests/${existing.iid}`,
      fields,
    );
    const mr = put.json ?? existing;
    return { url: mr.web_url, number: mr.iid, updated: true };
  }
}
