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
import path from 'node:path';
import {
  checkGitOpsRepoUrl,
  type ClusterProfile,
  type GpuCatalog,
} from '@gpu-gitops/plugin-gpu-common';
import { renderChangeSetDiff } from '../changes/diff';
import { importBranchName, importTrailer } from '../git/branchName';
import {
  buildImportChange,
  type ImportChange,
} from '../import/buildImportChange';
import type { LayoutInput } from '../layout/layout';
import {
  renderImportReport,
  type RenderedImportReport,
} from '../pr/renderImportReport';
import type { ImportReportView } from '../pr/importView';
import { FsRepoTree } from '../repo/tree';
import type { PublishLogger, Redactor } from '../redact';
import {
  DEFAULT_CACHE_DIR,
  publishRedacted,
  pullRequestStage,
  pushStage,
  openRepository,
  type GitOpsTargetOptions,
} from './gitopsTarget';
import { WHOLE_REPOSITORY } from './sparseFolders';
import { runStage, type StageTiming } from './stages';

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
export interface PublishGpuImportResult {
  branch: string;
  commit?: string;
  /** PR / MR URL; undefined in a dry run or when nothing changed. */
  url?: string;
  number?: number;
  /** False when the base is adopted already: no commit, no pull request. */
  changed: boolean;
  /** True when an existing branch / PR was updated rather than created. */
  updated: boolean;
  files: string[];
  title: string;
  /** The report as markdown: the pull request's body. */
  body: string;
  /** The same report as plain text (the CLI's output). */
  text: string;
  commitMessage: string;
  report: ImportReportView;
  /** Unified diff of the change (dry run only). */
  diff?: string;
  baseSha: string;
  dryRun: boolean;
  attempts: number;
  stages: StageTiming[];
}

/** @public */
export async function publishGpuImport(
  options: PublishGpuImportOptions,
): Promise<PublishGpuImportResult> {
  return publishRedacted(options, 'import', (redactor, logger) =>
    publish(options, redactor, logger),
  );
}

async function publish(
  options: PublishGpuImportOptions,
  redactor: Redactor,
  logger: PublishLogger,
): Promise<PublishGpuImportResult> {
  checkGitOpsRepoUrl(options.repoUrl);
  const stages: StageTiming[] = [];
  const cluster = options.cluster.name;
  const branch = importBranchName(cluster);
  const repository = openRepository(options, redactor, logger);

  let built: (ImportChange & RenderedImportReport) | undefined;
  const build = async (workDir: string, attempt: number) => {
    const suffix = attempt > 1 ? ` (rebuild ${attempt})` : '';
    const change = await buildImportChange({
      tree: new FsRepoTree(workDir),
      dir: workDir,
      cluster: options.cluster,
      catalog: options.catalog,
      owner: options.owner,
      layout: options.layout,
      stage: (stage, step) =>
        runStage(logger, stages, `${stage}${suffix}`, step),
      kustomize: {
        cacheDir: path.join(options.cacheDir ?? DEFAULT_CACHE_DIR, 'kustomize'),
        timeoutMs: options.timeoutMs,
      },
    });
    built = { ...change, ...renderImportReport({ change, redactor }) };
    return change.changeSet;
  };
  const reportOf = (state: ImportChange & RenderedImportReport) => ({
    title: state.title,
    body: state.body,
    text: state.text,
    commitMessage: state.commitMessage,
    report: state.view,
  });

  if (options.dryRun) {
    // The import reads every workload, wherever it lives: the whole tree.
    const { workDir, baseSha } = await runStage(
      logger,
      stages,
      'Fetch base',
      () => repository.checkoutBase(WHOLE_REPOSITORY),
    );
    const changeSet = await build(workDir, 1);
    return {
      branch,
      changed: changeSet.changes.length > 0,
      updated: false,
      files: changeSet.changes.map(c => c.path).sort(),
      ...reportOf(built!),
      diff: redactor.redact(renderChangeSetDiff(changeSet)),
      baseSha,
      dryRun: true,
      attempts: 0,
      stages,
    };
  }

  const pushed = await pushStage(logger, stages, options, repository, {
    branch,
    trailer: importTrailer(cluster),
    sparsePaths: WHOLE_REPOSITORY,
    build: async ({ workDir, attempt }) => {
      const changeSet = await build(workDir, attempt);
      return { changes: changeSet.changes, message: built!.commitMessage };
    },
  });
  const state = built!;
  const common = {
    branch,
    ...reportOf(state),
    baseSha: pushed.baseSha,
    dryRun: false,
    attempts: pushed.attempts,
    stages,
  };
  if (!pushed.changed) {
    logger.info(`${repository.baseBranch} holds the import already`);
    return { ...common, changed: false, updated: false, files: [] };
  }
  const pr = await pullRequestStage(logger, stages, options, redactor, {
    baseBranch: repository.baseBranch,
    branch,
    title: state.title,
    body: state.body,
    branchExisted: pushed.branchExisted,
  });
  return {
    ...common,
    commit: pushed.commit,
    url: pr.url,
    number: pr.number,
    changed: true,
    updated: pr.updated,
    files: pushed.files,
  };
}
