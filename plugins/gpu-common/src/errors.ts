/**
 * The error every layer throws for input the user can fix: an invalid request
 * field, an unknown model, a mode the model cannot do. Each issue names the
 * field path (`spec.gpu.replicas`) and the rule it broke, so the CLI can exit 2,
 * the scaffolder can raise an `InputError` and the form can mark the field.
 *
 * @public
 */
export interface InputIssue {
  /** Dotted field path, e.g. `spec.gpu.vramGiB`; empty for the whole document. */
  path: string;
  /** Short rule id, e.g. `dns1123-label`, `max`, `unknown-key`, `mig-unsupported`. */
  rule: string;
  /** One sentence a developer understands. */
  message: string;
}

/** @public */
export class GpuInputError extends Error {
  readonly issues: InputIssue[];

  constructor(issues: InputIssue[]) {
    super(
      issues
        .map(i => (i.path ? `${i.path}: ${i.message}` : i.message))
        .join('\n'),
    );
    this.name = 'GpuInputError';
    this.issues = issues;
  }
}

/** @public */
export function isGpuInputError(error: unknown): error is GpuInputError {
  return error instanceof Error && error.name === 'GpuInputError';
}
