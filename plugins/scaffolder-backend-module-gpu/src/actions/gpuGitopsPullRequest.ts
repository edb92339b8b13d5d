import type { z as zod } from 'zod/v3';
import type { LoggerService } from '@backstage/backend-plugin-api';
import { createTemplateAction } from '@backstage/plugin-scaffolder-node';
import type { JsonValue } from '@backstage/types';
import { planToJson, type Plan } from '@gpu-gitops/plugin-gpu-common';
import {
  publishGpuRequest,
  gpuRequestInputProperties,
} from '@gpu-gitops/plugin-gpu-node';
import type { GpuActionServices } from '../services/gpuActionServices';
import { examples } from './gpuGitopsPullRequest.examples';
import {
  gitopsTargetInputProperties,
  publishTarget,
  requireGitOpsTarget,
  type GitOpsTarget,
} from './gitopsTarget';
import { toInputError, type GpuRequestInput } from './gpuRequestInput';
import {
  gpuRequestContext,
  planSummaryMarkdown,
  type GpuRequestContext,
} from './planGpuRequest';
import { pullRequestLink } from './pullRequestLink';
import { refusingCleanly } from './refusals';
import { runStage } from './stages';

const pullRequestOutputProperties = {
  branchName: (schemas: typeof zod) =>
    schemas.string().describe('Branch holding the change'),
  pullRequestUrl: (schemas: typeof zod) =>
    schemas
      .string()
      .describe(
        "Web URL of the pull request (local forge: the app's review page, <app.baseUrl>/gpu/pull-requests/<branch without gpu/>)",
      ),
  changed: (schemas: typeof zod) =>
    schemas
      .boolean()
      .describe('False when the repository already held the request'),
  commit: (schemas: typeof zod) =>
    schemas.string().describe('Commit at the head of the branch'),
  files: (schemas: typeof zod) =>
    schemas.array(schemas.string()).describe('Files the change touches'),
  title: (schemas: typeof zod) =>
    schemas.string().describe('Pull request title'),
  body: (schemas: typeof zod) =>
    schemas.string().describe('Pull request body (markdown)'),
  diff: (schemas: typeof zod) =>
    schemas.string().describe('Unified diff of the change (dry-run)'),
  summary: (schemas: typeof zod) =>
    schemas.string().describe('Markdown summary of the plan'),
  plan: (schemas: typeof zod) =>
    schemas.record(schemas.custom<JsonValue>()).describe('The plan JSON'),
};

/**
 * What a run answers. A real run stores it (without the diff) under its
 * checkpoint: a recovered task reads it back instead of publishing again.
 */
type PullRequestResult = {
  branch: string;
  url: string;
  changed: boolean;
  commit: string;
  files: string[];
  title: string;
  body: string;
  diff?: string;
  summary: string;
  plan: Record<string, JsonValue>;
};

/**
 * `gpu:gitops:pull-request`: the whole flow in one step — plan, guardrails,
 * apply to the GitOps repository, commit, push the request's branch and open
 * (or update) the pull request. Re-runs update the same branch and PR. In
 * dry-run it computes everything and pushes nothing; the diff is the output.
 *
 * @public
 */
export function createGpuGitopsPullRequestAction(services: GpuActionServices) {
  const action = createTemplateAction({
    id: 'gpu:gitops:pull-request',
    description:
      'Plans a GPU request, applies it to the GitOps repository and opens or updates one pull request (GitHub, GitLab, Gitea, or a pushed branch for a local repository). Dry-run outputs the diff without pushing.',
    examples,
    supportsDryRun: true,
    schema: {
      input: {
        ...gpuRequestInputProperties,
        ...gitopsTargetInputProperties,
        draft: (schemas: typeof zod) =>
          schemas
            .boolean()
            .optional()
            .describe('Open the pull request as a draft'),
      },
      output: pullRequestOutputProperties,
    },
    async handler(ctx) {
      const { input, logger } = ctx;
      const target = await requireGitOpsTarget(input, services);
      // Explicit choices the owner may not make fail before anything is read;
      // the guard (policy, quota) then runs on every plan, rebuilds included.
      const context = gpuRequestContext(input, services);
      const run: RequestRun = { context, target, input, logger, services };
      const result: PullRequestResult = ctx.isDryRun
        ? await dryRunRequest(run)
        : await ctx.checkpoint({
            key: checkpointKey(run),
            fn: () => publishRequest(run),
          });
      if (!ctx.isDryRun) logPublished(logger, result);
      ctx.output('branchName', result.branch);
      ctx.output('pullRequestUrl', result.url);
      ctx.output('changed', result.changed);
      ctx.output('commit', result.commit);
      ctx.output('files', result.files);
      ctx.output('title', result.title);
      ctx.output('body', result.body);
      ctx.output('diff', result.diff ?? '');
      ctx.output('summary', result.summary);
      ctx.output('plan', result.plan);
    },
  });
  // Refusals fail the step with their reason, never a stack trace.
  return refusingCleanly(action);
}

/** One run of the action: the planned request and where it goes. */
interface RequestRun {
  context: GpuRequestContext;
  target: GitOpsTarget;
  input: GpuRequestInput & { draft?: boolean };
  logger: LoggerService;
  services: GpuActionServices;
}

/**
 * A recovered task must not push and open the PR twice: the result is stored
 * under a key unique to this task and request.
 */
function checkpointKey({ context, target }: RequestRun): string {
  const { namespace, name } = context.request.metadata;
  return `gpu.pull-request.${target.repoUrl}.${namespace}.${name}`;
}

async function publish(run: RequestRun, dryRun: boolean) {
  const { request, cluster, catalog, guard, policy } = run.context;
  try {
    return await publishGpuRequest({
      request,
      cluster,
      catalog,
      guard,
      policy,
      ...publishTarget(run.target, run.services),
      draft: run.input.draft,
      dryRun,
      logger: run.logger,
    });
  } catch (error) {
    throw toInputError(error);
  }
}

/** The plan's summary, told on the task page too. */
function summaryOf(run: RequestRun, plan: Plan): string {
  const summary = planSummaryMarkdown({ plan, quota: run.context.quota()! });
  run.logger.info(summary);
  return summary;
}

function planOutput(plan: Plan): Record<string, JsonValue> {
  return planToJson(plan) as unknown as Record<string, JsonValue>;
}

/** Everything computed, nothing pushed; the diff is the answer. */
async function dryRunRequest(run: RequestRun): Promise<PullRequestResult> {
  const result = await runStage(run.logger, 'Dry run (nothing pushed)', () =>
    publish(run, true),
  );
  return {
    branch: result.branch,
    url: '',
    changed: result.changed,
    commit: '',
    files: result.files,
    title: result.title,
    body: result.body,
    diff: result.diff ?? '',
    summary: summaryOf(run, result.plan),
    plan: planOutput(result.plan),
  };
}

async function publishRequest(run: RequestRun): Promise<PullRequestResult> {
  const { target, services } = run;
  const published = await runStage(
    run.logger,
    `Push branch and open ${target.forge} pull request`,
    () => publish(run, false),
  );
  return {
    branch: published.branch,
    url: pullRequestLink({
      forge: target.forge,
      branch: published.branch,
      forgeUrl: published.url,
      appBaseUrl: services.appBaseUrl,
    }),
    changed: published.changed,
    commit: published.commit ?? '',
    files: published.files,
    title: published.title,
    body: published.body,
    summary: summaryOf(run, published.plan),
    plan: planOutput(published.plan),
  };
}

function logPublished(logger: LoggerService, result: PullRequestResult): void {
  logger.info(
    result.changed
      ? `Pull request: ${result.url}`
      : `The repository already holds this request; branch ${result.branch} unchanged`,
  );
}
