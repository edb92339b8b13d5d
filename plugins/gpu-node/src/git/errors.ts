/** Git failures, classified so the publisher knows whether a retry can help. */
export type GitOpsErrorKind =
  'auth' | 'push-rejected' | 'foreign-commits' | 'remote' | 'git';

export class GitOpsError extends Error {
  readonly kind: GitOpsErrorKind;
  constructor(message: string, kind: GitOpsErrorKind = 'git') {
    super(message);
    this.name = 'GitOpsError';
    this.kind = kind;
  }
}

const AUTH_PATTERNS = [
  /authentication failed/i,
  /could not read username/i,
  /could not read password/i,
  /terminal prompts disabled/i,
  /HTTP (basic: )?access denied/i,
  /\b(401|403)\b/,
  /permission denied/i,
];

const REJECTED_PATTERNS = [
  /\[rejected\]/i,
  /stale info/i,
  /non-fast-forward/i,
  /fetch first/i,
  /hook declined/i,
  /\[remote rejected\]/i,
  /cannot lock ref/i,
  /failed to push some refs/i,
];

export function classifyGitFailure(message: string): GitOpsErrorKind {
  if (AUTH_PATTERNS.some(p => p.test(message))) return 'auth';
  if (REJECTED_PATTERNS.some(p => p.test(message))) return 'push-rejected';
  return 'git';
}
