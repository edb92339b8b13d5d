import type { z as zod } from 'zod/v3';
import type { LoggerService } from '@backstage/backend-plugin-api';
import { createTemplateAction } from '@backstage/plugin-scaffolder-node';
import type { JsonValue } from '@backstage/types';
import { publishGpuRelease } from '@gpu-gitops/plugin-gpu-node';
import type { GpuActionServices } from '../services/gpuActionServices';
import { examples } from './gpuGitopsRelease.examples';
import {
  gitopsTargetInputProperties,
  requireGitOpsTarget,
  publishTarget,
  type GitOpsTarget,
} from './gitopsTarget';
import { toInputError } from './gpuRequestInput';
import { publishOnce } from './publishOnce';
import { refusingCleanly } from './refusals';

const DNS_LABEL = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/;

/** The request a release takes out (its `reason` comes after the GitOps target's inputs). */
const releaseInputProperties = {
  name: (schemas: typeof zod) =>
    schemas
      .string()
      .regex(DNS_LABEL, 'a DNS label: lowercase letters, digits, -')
      .describe('Name of the GPU request to release'),
  namespace: (schemas: typeof zod) =>
    schemas
      .string()
      .regex(DNS_LABEL, 'a DNS label: lowercase letters, digits, -')
      .describe('Namespace of the GPU request'),
};

const reasonInput = (schemas: typeof zod) =>
  schemas
    .string()
    .max(500)
    .optional()
    .describe('Why, said first in the pull request body');

const releaseOutputProperties = {
  branchName: (schemas: typeof zod) =>
    schemas.string().describe('Branch holding the release'),
  pullRequestUrl: (schemas: typeof zod) =>
    schemas.string().describe('Web URL of the release pull request'),
  commit: (schemas: typeof zod) =>
    schemas.string().describe('Commit at the head of the branch'),
  files: (schemas: typeof zod) =>
    schemas.array(schemas.string()).describe('Files the release touches'),
  title: (schemas: typeof zod) =>
    schemas.string().describe('Pull request title'),
  body: (schemas: typeof zod) =>
    schemas.string().describe('Pull request body (markdown)'),
  diff: (schemas: typeof zod) =>
    schemas.string().describe('Unified diff (dry-run)'),
  savedUsdPerMonth: (schemas: typeof zod) =>
    schemas.number().describe('What the pools cost less per month'),
  savings: (schemas: typeof zod) =>
    schemas
      .string()
      .describe(
        'What it saves and why, in one sentence (a pool that keeps its nodes frees no money)',
      ),
  leaves: (schemas: typeof zod) =>
    schemas
      .array(
        schemas.object({
          kind: schemas.string(),
          name: schemas.string(),
          path: schemas.string(),
        }),
      )
      .describe(
        'Objects the product did not write beside the workload it created: the release leaves them',
      ),
  plan: (schemas: typeof zod) =>
    schemas
      .record(schemas.custom<JsonValue>())
      .describe('The release plan JSON'),
};

/**
 * `gpu:gitops:release`: opens (or updates) the pull request that takes a
 * merged request out of the GitOps repository — its workload's GPUs, its
 * share of its pools, the pools and configs only it used. A request that is
 * not merged, or released already, fails the step with that reason.
 *
 * @public
 */
export function createGpuGitopsReleaseAction(services: GpuActionServices) {
  const action = createTemplateAction({
    id: 'gpu:gitops:release',
    description:
      'Opens or updates the pull request that releases a merged GPU request: its workload GPUs, its share of its pools, and the pools, overlays and configs nothing else uses. Dry-run outputs the diff without pushing.',
    examples,
    supportsDryRun: true,
    schema: {
      input: {
        ...releaseInputProperties,
        ...gitopsTargetInputProperties,
        reason: reasonInput,
      },
      output: releaseOutputProperties,
    },
    async handler(ctx) {
      const { input } = ctx;
      const target = await requireGitOpsTarget(input, services);
      const result = await publishOnce(
        ctx,
        target,
        services.appBaseUrl,
        // A recovered task must not open the release twice.
        `gpu.release.${target.repoUrl}.${input.namespace}.${input.name}`,
        dryRun => publishRelease(input, target, services, ctx.logger, dryRun),
      );
      ctx.output('branchName', result.branch);
      ctx.output('pullRequestUrl', ctx.isDryRun ? '' : (result.url ?? ''));
      ctx.output('commit', result.commit ?? '');
      ctx.output('files', result.files);
      ctx.output('title', result.title);
      ctx.output('body', result.body);
      ctx.output('diff', result.diff ?? '');
      ctx.output('savedUsdPerMonth', result.plan.savedUsdPerMonth);
      ctx.output('savings', result.plan.savings);
      ctx.output(
        'leaves',
        result.leaves.map(o => ({ kind: o.kind, name: o.name, path: o.path })),
      );
      ctx.output(
        'plan',
        JSON.parse(JSON.stringify(result.plan)) as Record<string, JsonValue>,
      );
    },
  });
  return refusingCleanly(action);
}

async function publishRelease(
  input: { namespace: string; name: string; reason?: string },
  target: GitOpsTarget,
  services: GpuActionServices,
  logger: LoggerService,
  dryRun: boolean,
) {
  try {
    return await publishGpuRelease({
      request: { namespace: input.namespace, name: input.name },
      clusterProfile: name => services.clusters.get(name),
      catalog: services.catalog,
      policy: services.policy,
      ...publishTarget(target, services),
      reason: input.reason,
      dryRun,
      logger,
    });
  } catch (error) {
    throw toInputError(error);
  }
}
