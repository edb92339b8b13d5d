/**
 * The import publisher: one cluster's existing GPU setup, one branch + pull
 * request that adopts it.
 *
 *   clone/fetch → buildImportChange (read, convert, adopt, request records,
 *     verify) → commit + push (rebuilt on a moved base) → forge PR
 *
 * Used by the CLI `import` command and the `gpu:gitops:import` action.
 * Idempotent: the branch is `gpu/import-<cluster>`, a re-run updates the same
 * branch and PR; a repository adopted already changes nothing (no commit, no
 * pull request). The report (grouped findings) is the pull request's body.
 */
import type { ClusterProfile, GpuCatalog } from '@gpu-gitops/plugin-gpu-common';
import { importBranchName, importTrailer } from '../git/branchName';
import { buildImportChange } from '../import/buildImportChange';
import type { LayoutInput } from '../layout/layout';
import { renderImportReport } from '../pr/renderImportReport';
import type { ImportReportView } from '../pr/importView';
import { GitCheckoutTree } from '../repo/gitCheckoutTree';
import type { PublishLogger, Redactor } from '../redact';
import { publishRedacted, type GitOpsTargetOptions } from './gitopsTarget';
import { publishChange, type PublishedChange } from './publishChange';
import { WHOLE_REPOSITORY } from './sparseFolders';

/** @public */
export interface PublishGpuImportOptions extends GitOpsTargetOptions {
  /** The cluster whose folder (`clusters/<name>/`) is imported. */
  cluster: ClusterProfile;
  catalog: GpuCatalog;
  /** Owner of the request records the import writes (`group:default/ml-platform`). */
  owner: string;
  layout?: LayoutInput;
  /** Compute the import, its report and diff; push nothing, open nothing. */
  dryRun?: boolean;
}

/** @public */
export interface ImportPublishFacts {
  /** The report as plain text (the CLI's output); `body` is the same as markdown. */
  text: string;
  report: ImportReportView;
}

/**
 * The import's pull request, its body the import report; `changed` is false
 * when the base is adopted already (no commit, no pull request).
 *
 * @public
 */
export type PublishGpuImportResult = PublishedChange<ImportPublishFacts>;

/** @public */
export async function publishGpuImport(
  options: PublishGpuImportOptions,
): Promise<PublishGpuImportResult> {
  return publishRedacted(options, 'import', (redactor, logger) =>
    publish(options, redactor, logger),
  );
}

function publish(
  options: PublishGpuImportOptions,
  redactor: Redactor,
  logger: PublishLogger,
): Promise<PublishGpuImportResult> {
  const cluster = options.cluster.name;
  return publishChange(options, redactor, logger, {
    branch: importBranchName(cluster),
    trailer: importTrailer(cluster),
    // The import reads every workload, wherever it lives: the whole tree
    // (a git checkout, so its kustomize chunks are keyed by blob id).
    sparsePaths: WHOLE_REPOSITORY,
    dryRun: options.dryRun ?? false,
    heldAlready: baseBranch => `${baseBranch} holds the import already`,
    build: async ({ workDir, stage, kustomize }) => {
      const change = await buildImportChange({
        tree: new GitCheckoutTree(workDir),
        dir: workDir,
        cluster: options.cluster,
        catalog: options.catalog,
        owner: options.owner,
        layout: options.layout,
        stage,
        kustomize,
      });
      const report = renderImportReport({ change, redactor });
      return {
        changeSet: change.changeSet,
        described: {
          title: report.title,
          body: report.body,
          text: report.text,
          commitMessage: report.commitMessage,
          report: report.view,
        },
      };
    },
  });
}
