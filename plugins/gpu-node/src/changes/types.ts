/**
 * A change set: the exact file edits that apply a plan to a GitOps repository
 * tree. Produced by the merge engine (`applyPlan`), consumed by the publisher
 * (branch + commit + push), the `render` command and the scaffolder actions.
 *
 * @public
 */
export type FileChange = FileWrite | FileDeletion;

/**
 * A file the change creates (it did not exist) or updates.
 *
 * @public
 */
export interface FileWrite {
  /** Repository-relative POSIX path. */
  path: string;
  action: 'create' | 'update';
  /** Full new content of the file. */
  content: string;
  /** Previous content, for diffs (undefined when created). */
  previous?: string;
}

/**
 * A file the change removes: only a release deletes, and only files the
 * product wrote (a released request's record, workload, patch, pool or config).
 *
 * @public
 */
export interface FileDeletion {
  /** Repository-relative POSIX path. */
  path: string;
  action: 'delete';
  /** The content it had, for diffs and review. */
  previous: string;
}

/** @public */
export interface ChangeSet {
  changes: FileChange[];
  /** True when the repository already holds exactly this request. */
  empty: boolean;
}
