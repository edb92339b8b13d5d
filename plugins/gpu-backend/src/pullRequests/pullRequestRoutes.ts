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
  BackstageCredentials,
  BackstageUserPrincipal,
  HttpAuthService,
  LoggerService,
  PermissionsService,
} from '@backstage/backend-plugin-api';
import {
  ConflictError,
  InputError,
  NotAllowedError,
  NotFoundError,
} from '@backstage/errors';
import type { CatalogService } from '@backstage/plugin-catalog-node';
import {
  AuthorizeResult,
  type BasicPermission,
} from '@backstage/plugin-permission-common';
import {
  gpuPullRequestClosePermission,
  gpuPullRequestMergePermission,
  pullRequestBranch,
  type GpuPullRequest,
  type GpuPullRequestDetail,
  type GpuPullRequestMergeResponse,
  type GpuPullRequestRefusal,
  type GpuPullRequestsResponse,
} from '@gpu-gitops/plugin-gpu-common';
import {
  LocalPullRequestError,
  type ForgeKind,
  type LocalPullRequests,
} from '@gpu-gitops/plugin-gpu-node';
import {
  readableEntityOfQuery,
  selects,
  workloadSelector,
} from '../http/entityAccess';
import type { OpenPullRequests } from './openPullRequests';

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

export async function createPullRequestRouter(
  options: PullRequestRouterOptions,
): Promise<express.Router> {
  const { httpAuth, permissions, catalog, logger } = options;
  const router = Router();
  router.use('/pull-requests', express.json({ limit: '16kb' }));

  const configured = () => {
    if (!options.review || !options.open) {
      throw new NotFoundError(
        'gpu.gitops is not configured: there is no GitOps repository to review',
      );
    }
    return { review: options.review, open: options.open };
  };
  /** Review in the app is the local forge's; other forges review on their own pages. */
  const reviewedHere = () => {
    const found = configured();
    if (!found.open.reviewInApp) {
      throw new InputError(
        `gpu.gitops.forge is ${options.forgeKind}: review, merge and close GPU pull requests there`,
      );
    }
    return found;
  };

  router.get('/pull-requests', async (req, res) => {
    const credentials = await httpAuth.credentials(req, {
      allow: ['user', 'service'],
    });
    // Without gpu.gitops there is nothing to review (as the index is empty).
    const open = options.open;
    let pullRequests = open ? await open.list() : [];
    if (req.query.entityRef !== undefined) {
      const { entity } = await readableEntityOfQuery(
        req.query.entityRef,
        catalog,
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
  });

  router.get('/pull-requests/:id', async (req, res) => {
    await httpAuth.credentials(req, { allow: ['user', 'service'] });
    const { review, open } = reviewedHere();
    const detail = await reviewError(() =>
      review.get(pullRequestBranch(req.params.id)),
    );
    const body: GpuPullRequestDetail = {
      ...detail,
      url: open.pageUrl(detail.branch),
    };
    res.json(body);
  });

  /** A reviewer's decision: a signed-in person the permission policy allows. */
  const decision = async (
    req: express.Request,
    permission: BasicPermission,
  ) => {
    const credentials = await httpAuth.credentials(req, { allow: ['user'] });
    await authorize(permissions, permission, credentials);
    const head: unknown = req.body?.head;
    if (typeof head !== 'string' || !/^[0-9a-f]{40,64}$/.test(head)) {
      throw new InputError(
        'body.head must be the head commit you reviewed (40 or 64 hex digits)',
      );
    }
    return {
      head,
      decidedBy: credentials.principal.userEntityRef,
      branch: pullRequestBranch(req.params.id),
    };
  };

  router.post('/pull-requests/:id/merge', async (req, res) => {
    const { review, open } = reviewedHere();
    const { branch, ...decided } = await decision(
      req,
      gpuPullRequestMergePermission,
    );
    const commit = await reviewError(() => review.merge(branch, decided));
    open.forget();
    logger.info(
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
  });

  router.post('/pull-requests/:id/close', async (req, res) => {
    const { review, open } = reviewedHere();
    const { branch, ...decided } = await decision(
      req,
      gpuPullRequestClosePermission,
    );
    await reviewError(() => review.close(branch, decided));
    open.forget();
    logger.info(`GPU pull request ${branch} closed by ${decided.decidedBy}`);
    res.status(204).end();
  });

  return router;
}

async function authorize(
  permissions: PermissionsService,
  permission: BasicPermission,
  credentials: BackstageCredentials<BackstageUserPrincipal>,
): Promise<void> {
  const [decision] = await permissions.authorize([{ permission }], {
    credentials,
  });
  if (decision.result !== AuthorizeResult.ALLOW) {
    throw new NotAllowedError(
      `${credentials.principal.userEntityRef} may not ${permission.name === gpuPullRequestMergePermission.name ? 'merge' : 'close'} GPU pull requests (permission ${permission.name})`,
    );
  }
}

/**
 * The review's refusals as HTTP errors: 404 for an unknown branch, 409 for a
 * conflict or a moved head. The error's own `refusal` property travels in the
 * body (Backstage serializes an error's own properties) as
 * `GpuPullRequestRefusalResponse`: what changed and what to do, for the page.
 */
async function reviewError<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (!(error instanceof LocalPullRequestError)) throw error;
    const refused =
      error.kind === 'not-found'
        ? new NotFoundError(error.message)
        : new ConflictError(error.message);
    const refusal: GpuPullRequestRefusal = {
      kind: error.kind,
      changed: error.changed,
      todo: error.todo,
      conflicts: [...error.conflicts],
    };
    Object.assign(refused, { refusal });
    throw refused;
  }
}
