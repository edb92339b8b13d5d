/**
 * A change set: the exact file edits that apply a plan to a GitOps repository
 * tree. Produced by the merge engine (`applyPlan`), consumed by the publisher
 * (branch + commit + push), the `render` command and the scaffolder actions.
 *
 * @public
 */
export interface FileChange {
  /** Repository-relative POSIX path. */
  path: string;
  /** `create` (file did not exist) or `update`. We never delete files. */
  action: 'create' | 'update';
  /** Full new content of the file. */
  content: string;
  /** Previous content, for diffs (undefined when created). */
  previous?: string;
}

/** @public */
export interface ChangeSet {
  changes: FileChange[];
  /** True when the repository already holds exactly this request. */
  empty: boolean;
}
