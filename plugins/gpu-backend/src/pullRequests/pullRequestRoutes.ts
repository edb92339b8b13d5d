/**
 * The gpu backend's pull-request API (mounted at /api/gpu beside router.ts):
 *   GET  /pull-requests[?entityRef=]   GpuPullRequestsResponse: the open GPU pull requests
 *                                      (of one catalog entity: those of its workload)
 *   GET  /pull-requests/:id            GpuPullRequestDetail with the diff (local forge)
 *   POST /pull-requests/:id/merge      { head } -> GpuPullRequestMergeResponse (local forge)
 *   POST /pull-requests/:id/close      { head } -> 204 (local forge)
 * `:id` is the branch without `gpu/`. Reading needs user or service
 * credentials; merging and closing need a signed-in user whom the permission
 * policy allows `gpu.pullRequest.merge` / `gpu.pullRequest.close`.
 */
import express from 'express';
import Router from 'express-promise-router';
import type {
  HttpAuthService,
  LoggerService,
  PermissionsService,
} from '@backstage/backend-plugin-api';
import { InputError, NotFoundError } from '@backstage/errors';
import type { CatalogService } from '@backstage/plugin-catalog-node';
import {
  gpuPullRequestClosePermission,
  gpuPullRequestMergePermission,
  pullRequestBranch,
  type GpuPullRequest,
  type GpuPullRequestDetail,
  type GpuPullRequestMergeResponse,
  type GpuPullRequestsResponse,
} from '@gpu-gitops/plugin-gpu-common';
import type { ForgeKind, LocalPullRequests } from '@gpu-gitops/plugin-gpu-node';
import {
  readableEntityOfQuery,
  selects,
  workloadSelector,
} from '../http/entityAccess';
import type { OpenPullRequests } from './openPullRequests';
import { readReviewerDecision } from './reviewerDecision';
import { reviewError } from './reviewError';

export interface PullRequestRouterOptions {
  httpAuth: HttpAuthService;
  permissions: PermissionsService;
  catalog: CatalogService;
  logger: LoggerService;
  forgeKind: ForgeKind;
  /** Undefined when `gpu.gitops` is not configured. */
  review?: LocalPullRequests;
  open?: OpenPullRequests;
  /** After a merge: refresh the allocation index, so the cards show it; true once it has. */
  onMerged(): Promise<boolean>;
}

type Handler = (req: express.Request, res: express.Response) => Promise<void>;

export async function createPullRequestRouter(
  options: PullRequestRouterOptions,
): Promise<express.Router> {
  const router = Router();
  router.use('/pull-requests', express.json({ limit: '16kb' }));
  router.get('/pull-requests', listPullRequests(options));
  router.get('/pull-requests/:id', showPullRequest(options));
  router.post('/pull-requests/:id/merge', mergePullRequest(options));
  router.post('/pull-requests/:id/close', closePullRequest(options));
  return router;
}

/** The request a pull request carries belongs to the entity whose workload it is. */
function belongsTo(
  pr: GpuPullRequest,
  selector: ReturnType<typeof workloadSelector>,
): boolean {
  return (
    !!pr.request &&
    selects(selector, {
      kubernetesId: pr.request.name,
      namespace: pr.request.namespace,
    })
  );
}

/** Review in the app is the local forge's; other forges review on their own pages. */
function reviewedHere(options: PullRequestRouterOptions): {
  review: LocalPullRequests;
  open: OpenPullRequests;
} {
  if (!options.review || !options.open) {
    throw new NotFoundError(
      'gpu.gitops is not configured: there is no GitOps repository to review',
    );
  }
  if (!options.open.reviewInApp) {
    throw new InputError(
      `gpu.gitops.forge is ${options.forgeKind}: review, merge and close GPU pull requests there`,
    );
  }
  return { review: options.review, open: options.open };
}

/** GET /pull-requests[?entityRef=]: the open GPU pull requests (of one entity's workload). */
function listPullRequests(options: PullRequestRouterOptions): Handler {
  return async (req, res) => {
    const credentials = await options.httpAuth.credentials(req, {
      allow: ['user', 'service'],
    });
    // Without gpu.gitops there is nothing to review (as the index is empty).
    const open = options.open;
    let pullRequests = open ? await open.list() : [];
    if (req.query.entityRef !== undefined) {
      const { entity } = await readableEntityOfQuery(
        req.query.entityRef,
        options.catalog,
        credentials,
      );
      const selector = workloadSelector(entity);
      pullRequests = pullRequests.filter(pr => belongsTo(pr, selector));
    }
    const body: GpuPullRequestsResponse = {
      forge: options.forgeKind,
      reviewInApp: open?.reviewInApp ?? false,
      pullRequests,
    };
    res.json(body);
  };
}

/** GET /pull-requests/:id: one pull request with its diff. */
function showPullRequest(options: PullRequestRouterOptions): Handler {
  return async (req, res) => {
    await options.httpAuth.credentials(req, { allow: ['user', 'service'] });
    const { review, open } = reviewedHere(options);
    const detail = await reviewError(() =>
      review.get(pullRequestBranch(req.params.id)),
    );
    const body: GpuPullRequestDetail = {
      ...detail,
      url: open.pageUrl(detail.branch),
    };
    res.json(body);
  };
}

/** POST /pull-requests/:id/merge: merged, then the index refreshed so the cards show it. */
function mergePullRequest(options: PullRequestRouterOptions): Handler {
  return async (req, res) => {
    const { review, open } = reviewedHere(options);
    const { branch, ...decided } = await readReviewerDecision(
      req,
      options,
      gpuPullRequestMergePermission,
    );
    const commit = await reviewError(() => review.merge(branch, decided));
    open.forget();
    options.logger.info(
      `GPU pull request ${branch} merged into ${review.baseBranch} by ${decided.decidedBy} (${commit.slice(0, 12)})`,
    );
    const indexed = await options.onMerged();
    const body: GpuPullRequestMergeResponse = {
      branch,
      baseBranch: review.baseBranch,
      commit,
      indexed,
    };
    res.json(body);
  };
}

/** POST /pull-requests/:id/close: 204 once closed. */
function closePullRequest(options: PullRequestRouterOptions): Handler {
  return async (req, res) => {
    const { review, open } = reviewedHere(options);
    const { branch, ...decided } = await readReviewerDecision(
      req,
      options,
      gpuPullRequestClosePermission,
    );
    await reviewError(() => review.close(branch, decided));
    open.forget();
    options.logger.info(
      `GPU pull request ${branch} closed by ${decided.decidedBy}`,
    );
    res.status(204).end();
  };
}
