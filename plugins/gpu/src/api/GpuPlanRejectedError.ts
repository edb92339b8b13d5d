import type { InputIssue } from '@gpu-gitops/plugin-gpu-common';

/**
 * The backend refused to plan a request (HTTP 400): it is invalid or does not
 * fit any GPU the catalog offers. Each issue names the field and the rule, so
 * the form can tell the user what to change.
 */
export class GpuPlanRejectedError extends Error {
  readonly issues: InputIssue[];

  constructor(message: string, issues: InputIssue[]) {
    super(message);
    this.name = 'GpuPlanRejectedError';
    this.issues = issues;
  }
}
