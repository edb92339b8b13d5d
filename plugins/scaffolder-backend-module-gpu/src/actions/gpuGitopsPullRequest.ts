import { createTemplateAction } from '@backstage/plugin-scaffolder-node';
import type { JsonValue } from '@backstage/types';
import { planToJson, type Plan } from '@gpu-gitops/plugin-gpu-common';
import { publishGpuRequest } from '@gpu-gitops/plugin-gpu-node';
import type { GpuActionServices } from '../services/gpuActionServices';
import { examples } from './gpuGitopsPullRequest.examples';
import {
  gitopsTargetInputProperties,
  requireGitOpsTarget,
  publishTarget,
} from './gitopsTarget';
import { gpuRequestInputProperties, toInputError } from './gpuRequestInput';
import { gpuRequestContext, planSummaryMarkdown } from './planGpuRequest';

import { pullRequestLink } from './pullRequestLink';
import { runStage } from './stages';
import { refusingCleanly } from './refusals';

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
        draft: z =>
          z.boolean().optional().describe('Open the pull request as a draft'),
      },
      output: {
        branchName: z => z.string().describe('Branch holding the change'),
        pullRequestUrl: z =>
          z
            .string()
            .describe(
              "Web URL of the pull request (local forge: the app's review page, <app.baseUrl>/gpu/pull-requests/<branch without gpu/>)",
            ),
        changed: z =>
          z
            .boolean()
            .describe('False when the repository already held the request'),
        commit: z => z.string().describe('Commit at the head of the branch'),
        files: z => z.array(z.string()).describe('Files the change touches'),
        title: z => z.string().describe('Pull request title'),
        body: z => z.string().describe('Pull request body (markdown)'),
        diff: z => z.string().describe('Unified diff of the change (dry-run)'),
        summary: z => z.string().describe('Markdown summary of the plan'),
        plan: z => z.record(z.custom<JsonValue>()).describe('The plan JSON'),
      },
    },
    async handler(ctx) {
      const { input } = ctx;
      const target = await requireGitOpsTarget(input, services);
      // Explicit choices the owner may not make fail before anything is read;
      // the guard (policy, quota) then runs on every plan, rebuilds included.
      const context = gpuRequestContext(input, services);
      const { request, cluster, catalog, guard, policy } = context;

      const publish = async (dryRun: boolean) => {
        try {
          return await publishGpuRequest({
            request,
            cluster,
            catalog,
            guard,
            policy,
            ...publishTarget(target, services),
            draft: input.draft,
            dryRun,
            logger: ctx.logger,
          });
        } catch (error) {
          throw toInputError(error);
        }
      };
      const summaryOf = (plan: Plan) => {
        const summary = planSummaryMarkdown({ plan, quota: context.quota()! });
        ctx.logger.info(summary);
        return summary;
      };

      if (ctx.isDryRun) {
        const result = await runStage(
          ctx.logger,
          'Dry run (nothing pushed)',
          () => publish(true),
        );
        ctx.output('branchName', result.branch);
        ctx.output('pullRequestUrl', '');
        ctx.output('changed', result.changed);
        ctx.output('commit', '');
        ctx.output('files', result.files);
        ctx.output('title', result.title);
        ctx.output('body', result.body);
        ctx.output('diff', result.diff ?? '');
        ctx.output('summary', summaryOf(result.plan));
        ctx.output(
          'plan',
          planToJson(result.plan) as unknown as Record<string, JsonValue>,
        );
        return;
      }

      // A recovered task must not push and open the PR twice: the result is
      // stored under a key unique to this task and request.
      const { namespace, name } = request.metadata;
      const result = await ctx.checkpoint({
        key: `gpu.pull-request.${target.repoUrl}.${namespace}.${name}`,
        fn: async () => {
          const published = await runStage(
            ctx.logger,
            `Push branch and open ${target.forge} pull request`,
            () => publish(false),
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
            summary: summaryOf(published.plan),
            plan: planToJson(published.plan) as unknown as Record<
              string,
              JsonValue
            >,
          };
        },
      });
      ctx.logger.info(
        result.changed
          ? `Pull request: ${result.url}`
          : `The repository already holds this request; branch ${result.branch} unchanged`,
      );
      ctx.output('branchName', result.branch);
      ctx.output('pullRequestUrl', result.url);
      ctx.output('changed', result.changed);
      ctx.output('commit', result.commit);
      ctx.output('files', result.files);
      ctx.output('title', result.title);
      ctx.output('body', result.body);
      ctx.output('diff', '');
      ctx.output('summary', result.summary);
      ctx.output('plan', result.plan);
    },
  });
  // Refusals fail the step with their reason, never a stack trace.
  return refusingCleanly(action);
}
