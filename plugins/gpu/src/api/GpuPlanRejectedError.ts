import type { InputIssue, QuotaUse } from '@gpu-gitops/plugin-gpu-common';

/**
 * The backend refused to plan a request (HTTP 400): it is invalid, does not
 * fit any GPU the catalog offers, or its owner's policy or quota forbids it.
 * Each issue names the field and the rule, so the form can tell the user what
 * to change; `quota` is the owner's quota use once the request was planned.
 *
 * @public
 */
export class GpuPlanRejectedError extends Error {
  readonly issues: InputIssue[];
  readonly quota?: QuotaUse;

  constructor(message: string, issues: InputIssue[], quota?: QuotaUse) {
    super(message);
    this.name = 'GpuPlanRejectedError';
    this.issues = issues;
    if (quota) this.quota = quota;
  }
}
