/**
 * A reviewer's decision on a GPU pull request (merge or close): a signed-in
 * person whom the permission policy allows `gpu.pullRequest.merge` /
 * `gpu.pullRequest.close`, naming the head commit they reviewed.
 */
import type express from 'express';
import type {
  BackstageCredentials,
  BackstageUserPrincipal,
  HttpAuthService,
  PermissionsService,
} from '@backstage/backend-plugin-api';
import { InputError, NotAllowedError } from '@backstage/errors';
import {
  AuthorizeResult,
  type BasicPermission,
} from '@backstage/plugin-permission-common';
import {
  gpuPullRequestMergePermission,
  pullRequestBranch,
} from '@gpu-gitops/plugin-gpu-common';

export interface ReviewerDecision {
  /** The head commit the reviewer saw: the review refuses a moved head. */
  head: string;
  decidedBy: string;
  branch: string;
}

export async function readReviewerDecision(
  req: express.Request,
  services: { httpAuth: HttpAuthService; permissions: PermissionsService },
  permission: BasicPermission,
): Promise<ReviewerDecision> {
  const credentials = await services.httpAuth.credentials(req, {
    allow: ['user'],
  });
  await authorize(services.permissions, permission, credentials);
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
