/**
 * `gpu:open-gpu-request-pull-request`: files a GPU request for an AI
 * assistant the way a person files it, through the gpu-workload template
 * run as the caller (templateTask.ts): the same permission checks, the same
 * plan, policy and quota, the same branch and pull request. A re-run with
 * the same request updates that branch and pull request (the
 * `gpu:gitops:pull-request` action's contract), hence idempotent.
 */
import type { ActionsRegistryService } from '@backstage/backend-plugin-api/alpha';
import type { ScaffolderService } from '@backstage/plugin-scaffolder-node';
import type { JsonValue } from '@backstage/types';
import { requestBranchName } from '@gpu-gitops/plugin-gpu-node';
import { gpuWorkloadValues } from '@gpu-gitops/plugin-gpu-node';
import { gpuRequestFields } from './requestFields';
import {
  outputLink,
  outputText,
  runTemplateTask,
  type TemplateTaskOptions,
} from './templateTask';

/** The form's template; its actions hold every rule of a request. */
export const GPU_WORKLOAD_TEMPLATE = 'template:default/gpu-workload';

export function registerOpenRequestAction(
  registry: ActionsRegistryService,
  scaffolder: ScaffolderService,
  run: Pick<TemplateTaskOptions, 'permissions' | 'timeoutMs' | 'pollMs'>,
): void {
  registry.register({
    name: 'open-gpu-request-pull-request',
    title: 'Request GPUs (open the pull request)',
    description:
      'Files a GPU request: opens (or updates) the pull request on the GitOps repository that gives ' +
      'a workload its GPUs, exactly as the "GPU workload" form does, under your identity. Your ' +
      "permission to run the form, the owner's allowed models and GPU quota are checked as for the form; " +
      'nothing reaches the cluster before a reviewer merges the pull request. Plan it first with ' +
      'plan-gpu-request. Running it again with the same request updates the same branch and pull request.',
    attributes: { readOnly: false, destructive: false, idempotent: true },
    schema: {
      input: z =>
        z.object({
          ...gpuRequestFields(z),
          catalogInfoUrl: z
            .string()
            .optional()
            .describe(
              "URL of the component's catalog-info.yaml to register with the request",
            ),
        }),
      output: z =>
        z.object({
          taskId: z
            .string()
            .describe(
              'The scaffolder task that filed it (its page has the log)',
            ),
          branch: z.string().describe('The branch holding the change'),
          pullRequestUrl: z
            .string()
            .describe('Where to review and merge the pull request'),
          summary: z.string().describe('The plan in words'),
        }),
    },
    action: async ({ input, credentials }) => {
      const { taskId, output } = await runTemplateTask(scaffolder, {
        ...run,
        templateRef: GPU_WORKLOAD_TEMPLATE,
        values: gpuWorkloadValues(input) as Record<string, JsonValue>,
        credentials,
      });
      return {
        output: {
          taskId,
          branch: requestBranchName(input.namespace, input.name),
          pullRequestUrl: outputLink(output, 'Pull request'),
          summary: outputText(output, 'GPU plan'),
        },
      };
    },
  });
}
