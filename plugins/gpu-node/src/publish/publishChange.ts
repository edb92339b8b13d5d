/**
 * The one skeleton of every publisher (request, release, import, bootstrap):
 *
 *   dry run:  fetch the base → build under the clone lock → the diff
 *   real run: fetch → build → commit + push (rebuilt on a moved base, with
 *             "(rebuild n)" on its stages) → nothing held already? → forge PR
 *
 * A publisher says only what differs: its branch and trailer, the folders it
 * reads, how it builds its change on a checkout and what describes it (title,
 * body, commit message and what else its result carries: plan, report, …).
 */
import path from 'node:path';
import { checkGitOpsRepoUrl } from '@gpu-gitops/plugin-gpu-common';
import { renderChangeSetDiff } from '../changes/diff';
import type { ChangeSet } from '../changes/types';
import type { GitOpsRepository } from '../git/GitOpsRepository';
import type { SparseReach } from '../git/sparseReach';
import type { PublishLogger, Redactor } from '../redact';
import {
  DEFAULT_CACHE_DIR,
  dryRunOnBase,
  openRepository,
  pullRequestStage,
  pushStage,
  type GitOpsTargetOptions,
} from './gitopsTarget';
import { runStage, type StageTiming } from './stages';

/**
 * What describes a change: its pull request and commit, and the publisher's own facts.
 *
 * @public
 */
export type ChangeDescription<Facts> = Facts & {
  title: string;
  body: string;
  commitMessage: string;
};

/** What a publisher's build gets: the checkout, its stage runner, the kustomize cache. */
export interface BuildContext {
  workDir: string;
  /** The branch the change goes to (`main` unless the options say another). */
  baseBranch: string;
  /** Times a stage; on a moved base its name says which rebuild it is. */
  stage<T>(name: string, step: () => Promise<T>): Promise<T>;
  /** Builds of an unchanged base are reused from one run to the next. */
  kustomize: { cacheDir: string; timeoutMs?: number };
}

export interface ChangeToPublish<Facts> {
  branch: string;
  /** The commit trailer that marks the branch as this change's. */
  trailer: string;
  /** The folders the build reads (sparse checkout). */
  sparsePaths: string[];
  /** What else the build reads, by what the checkout's files reference. */
  sparseReach?: SparseReach;
  dryRun: boolean;
  build(context: BuildContext): Promise<{
    changeSet: ChangeSet;
    described: ChangeDescription<Facts>;
  }>;
  /** Said when the base holds the change already: no commit, no pull request. */
  heldAlready(baseBranch: string): string;
}

/**
 * What every publisher returns: the branch, its commit and pull request, the
 * change's files and description, and the publisher's own facts.
 *
 * @public
 */
export type PublishedChange<Facts> = ChangeDescription<Facts> & {
  branch: string;
  /** Commit at the head of the branch (undefined in a dry run or when nothing changed). */
  commit?: string;
  /** PR / MR URL (the branch, as `file:///…#<branch>` for a local repository with the local forge); undefined in a dry run or when nothing changed. */
  url?: string;
  number?: number;
  /** False when the base holds the change already. */
  changed: boolean;
  /** True when an existing branch / PR was updated rather than created. */
  updated: boolean;
  files: string[];
  /** Unified diff of the change (dry run only). */
  diff?: string;
  baseSha: string;
  dryRun: boolean;
  /** Push attempts used (0 in a dry run). */
  attempts: number;
  stages: StageTiming[];
};

type BuildOnBase<Facts> = (
  workDir: string,
  attempt: number,
) => ReturnType<ChangeToPublish<Facts>['build']>;

/** A dry run: the change built on the base, its diff; nothing pushed. */
function dryRun<Facts>(
  logger: PublishLogger,
  stages: StageTiming[],
  repository: GitOpsRepository,
  redactor: Redactor,
  change: ChangeToPublish<Facts>,
  build: BuildOnBase<Facts>,
): Promise<PublishedChange<Facts>> {
  return dryRunOnBase(
    logger,
    stages,
    repository,
    change.sparsePaths,
    async ({ workDir, baseSha }) => {
      const { changeSet, described } = await build(workDir, 1);
      return {
        ...described,
        branch: change.branch,
        changed: !changeSet.empty && changeSet.changes.length > 0,
        updated: false,
        files: changeSet.changes.map(c => c.path).sort(),
        diff: redactor.redact(renderChangeSetDiff(changeSet)),
        baseSha,
        dryRun: true,
        attempts: 0,
        stages,
      };
    },
    change.sparseReach,
  );
}

/** Runs one publish on the skeleton above. */
export async function publishChange<Facts>(
  options: GitOpsTargetOptions,
  redactor: Redactor,
  logger: PublishLogger,
  change: ChangeToPublish<Facts>,
): Promise<PublishedChange<Facts>> {
  checkGitOpsRepoUrl(options.repoUrl);
  const stages: StageTiming[] = [];
  const repository = openRepository(options, redactor, logger);
  const kustomize = {
    cacheDir: path.join(options.cacheDir ?? DEFAULT_CACHE_DIR, 'kustomize'),
    timeoutMs: options.timeoutMs,
  };
  const build: BuildOnBase<Facts> = (workDir, attempt) => {
    const suffix = attempt > 1 ? ` (rebuild ${attempt})` : '';
    return change.build({
      workDir,
      baseBranch: repository.baseBranch,
      kustomize,
      stage: (name, step) => runStage(logger, stages, `${name}${suffix}`, step),
    });
  };
  const { branch } = change;

  if (change.dryRun) {
    return dryRun(logger, stages, repository, redactor, change, build);
  }

  let described: ChangeDescription<Facts> | undefined;
  const pushed = await pushStage(logger, stages, options, repository, {
    branch,
    trailer: change.trailer,
    sparsePaths: change.sparsePaths,
    sparseReach: change.sparseReach,
    build: async ({ workDir, attempt }) => {
      const built = await build(workDir, attempt);
      described = built.described;
      const { changeSet } = built;
      if (changeSet.empty || changeSet.changes.length === 0) return undefined;
      return { changes: changeSet.changes, message: described.commitMessage };
    },
  });
  const common = {
    ...described!,
    branch,
    baseSha: pushed.baseSha,
    dryRun: false,
    attempts: pushed.attempts,
    stages,
  };
  if (!pushed.changed) {
    logger.info(change.heldAlready(repository.baseBranch));
    return { ...common, changed: false, updated: false, files: [] };
  }
  const pr = await pullRequestStage(logger, stages, options, redactor, {
    baseBranch: repository.baseBranch,
    branch,
    title: described!.title,
    body: described!.body,
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
