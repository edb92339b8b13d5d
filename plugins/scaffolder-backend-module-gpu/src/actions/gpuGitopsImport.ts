import type { z as zod } from 'zod/v3';
import { createTemplateAction } from '@backstage/plugin-scaffolder-node';
import { InputError } from '@backstage/errors';
import type { JsonValue } from '@backstage/types';
import { isGpuInputError } from '@gpu-gitops/plugin-gpu-common';
import { publishGpuImport } from '@gpu-gitops/plugin-gpu-node/onboarding';
import type { GpuActionServices } from '../services/gpuActionServices';
import { examples } from './gpuGitopsImport.examples';
import {
  gitopsTargetInputProperties,
  requireGitOpsTarget,
  publishTarget,
} from './gitopsTarget';
import { publishOnce } from './publishOnce';
import { refusingCleanly } from './refusals';

/**
 * An import refused (a bad owner, a cluster folder with nothing to import,
 * a change kustomize does not confirm): one line per reason, naming the input.
 */
function refusedImport(error: unknown): unknown {
  if (!isGpuInputError(error)) return error;
  return new InputError(
    `The import was refused:\n${error.issues
      .map(i => `input "${i.path}": ${i.message} [${i.rule}]`)
      .join('\n')}`,
  );
}

const importOutputProperties = {
  branchName: (schemas: typeof zod) =>
    schemas.string().describe('Branch holding the import'),
  pullRequestUrl: (schemas: typeof zod) =>
    schemas
      .string()
      .describe(
        'Web URL of the import pull request (empty in a dry run or when nothing changed)',
      ),
  commit: (schemas: typeof zod) =>
    schemas.string().describe('Commit at the head of the branch'),
  changed: (schemas: typeof zod) =>
    schemas.boolean().describe('False when the repository is adopted already'),
  files: (schemas: typeof zod) =>
    schemas.array(schemas.string()).describe('Files the import touches'),
  title: (schemas: typeof zod) =>
    schemas.string().describe('Pull request title'),
  body: (schemas: typeof zod) =>
    schemas.string().describe('The import report (markdown): the PR body'),
  report: (schemas: typeof zod) =>
    schemas
      .record(schemas.custom<JsonValue>())
      .describe(
        'The report as data: converted, conversionNotes, reported, untouched, adoptedPools, records, workloads, files',
      ),
  diff: (schemas: typeof zod) =>
    schemas.string().describe('Unified diff (dry-run)'),
};

/**
 * `gpu:gitops:import`: opens (or updates) the pull request that adopts a
 * cluster's existing GPU setup — legacy Karpenter objects converted to v1,
 * GPU pools adopted (annotations only), request records for the GPU
 * workloads on them — with the import's report as its body.
 *
 * @public
 */
export function createGpuGitopsImportAction(services: GpuActionServices) {
  const action = createTemplateAction({
    id: 'gpu:gitops:import',
    description:
      "Opens or updates the pull request that adopts a cluster's existing GPU setup: legacy Karpenter objects (Provisioner, AWSNodeTemplate, v1beta1) converted to v1 in place, GPU NodePools adopted with their ledger, request records for the GPU workloads on them; the body reports what was converted, what has no v1 equivalent (with its value) and what stays untouched. Dry-run outputs the report and the diff without pushing.",
    examples,
    supportsDryRun: true,
    schema: {
      input: {
        cluster: z =>
          z
            .string()
            .optional()
            .describe(
              'Cluster profile name whose folder is imported (default: gpu.clusters.default)',
            ),
        owner: z =>
          z
            .string()
            .describe(
              'Owner of the request records the import writes, e.g. group:default/ml-platform',
            ),
        ...gitopsTargetInputProperties,
      },
      output: importOutputProperties,
    },
    async handler(ctx) {
      const { input } = ctx;
      const target = await requireGitOpsTarget(input, services);
      const cluster = services.clusters.get(input.cluster);
      const publish = async (dryRun: boolean) => {
        try {
          return await publishGpuImport({
            cluster,
            catalog: services.catalog,
            owner: input.owner,
            ...publishTarget(target, services),
            dryRun,
            logger: ctx.logger,
          });
        } catch (error) {
          throw refusedImport(error);
        }
      };
      const result = await publishOnce(
        ctx,
        target,
        services.appBaseUrl,
        // A recovered task must not open the import twice.
        `gpu.import.${target.repoUrl}.${cluster.name}`,
        publish,
      );
      ctx.output('branchName', result.branch);
      ctx.output('pullRequestUrl', ctx.isDryRun ? '' : (result.url ?? ''));
      ctx.output('commit', result.commit ?? '');
      ctx.output('changed', result.changed);
      ctx.output('files', result.files);
      ctx.output('title', result.title);
      ctx.output('body', result.body);
      ctx.output(
        'report',
        JSON.parse(JSON.stringify(result.report)) as Record<string, JsonValue>,
      );
      ctx.output('diff', result.diff ?? '');
    },
  });
  return refusingCleanly(action);
}
