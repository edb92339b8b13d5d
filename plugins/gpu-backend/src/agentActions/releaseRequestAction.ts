/**
 * `gpu:release-gpu-request`: gives a merged GPU request's GPUs back, for an
 * AI assistant, through the gpu-release template run as the caller
 * (templateTask.ts): the same permission checks and the same release pull
 * request as the "Release GPUs" form. Once merged, the workload loses its
 * GPUs: destructive.
 */
import type { ActionsRegistryService } from '@backstage/backend-plugin-api/alpha';
import type { ScaffolderService } from '@backstage/plugin-scaffolder-node';
import { releaseBranchName } from '@gpu-gitops/plugin-gpu-node';
import {
  outputLink,
  runTemplateTask,
  type TemplateTaskOptions,
} from './templateTask';

/** The "Release GPUs" form's template. */
export const GPU_RELEASE_TEMPLATE = 'template:default/gpu-release';

export function registerReleaseRequestAction(
  registry: ActionsRegistryService,
  scaffolder: ScaffolderService,
  run: Pick<TemplateTaskOptions, 'permissions' | 'timeoutMs' | 'pollMs'>,
): void {
  registry.register({
    name: 'release-gpu-request',
    title: 'Release GPUs (open the release pull request)',
    description:
      "Gives a merged GPU request's GPUs back: opens the pull request that removes its GPUs from the " +
      'workload and shrinks or removes the node pool it alone needed, exactly as the "Release GPUs" form ' +
      'does, under your identity and with the same permission checks. Once a reviewer merges it, the ' +
      'workload no longer has GPUs.',
    attributes: { readOnly: false, destructive: true, idempotent: true },
    schema: {
      input: z =>
        z.object({
          name: z
            .string()
            .describe(
              "The GPU request's name (its component), e.g. chat-assistant",
            ),
          namespace: z.string().describe('Its Kubernetes namespace'),
          reason: z
            .string()
            .optional()
            .describe('Said first in the pull request'),
        }),
      output: z =>
        z.object({
          taskId: z.string().describe('The scaffolder task that opened it'),
          branch: z.string().describe('The branch holding the release'),
          pullRequestUrl: z
            .string()
            .describe('Where to review and merge the release'),
        }),
    },
    action: async ({ input, credentials }) => {
      const { taskId, output } = await runTemplateTask(scaffolder, {
        ...run,
        templateRef: GPU_RELEASE_TEMPLATE,
        values: {
          name: input.name,
          namespace: input.namespace,
          ...(input.reason ? { reason: input.reason } : {}),
        },
        credentials,
      });
      return {
        output: {
          taskId,
          branch: releaseBranchName(input.namespace, input.name),
          pullRequestUrl: outputLink(output, 'Release pull request'),
        },
      };
    },
  });
}
