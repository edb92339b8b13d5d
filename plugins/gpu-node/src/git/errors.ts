/** Git failures, classified so the publisher knows whether a retry can help. */
export type GitOpsErrorKind =
  | 'auth'
  /** The base or the branch moved under us (lease or fast-forward): rebuilt and retried. */
  | 'push-rejected'
  /** The remote refused the push by a rule of its own (hook, protected branch): reported once. */
  | 'push-refused'
  /** A git command did not finish in time (the remote did not answer): never retried. */
  | 'timeout'
  | 'foreign-commits'
  | 'remote'
  | 'git';

export class GitOpsError extends Error {
  readonly kind: GitOpsErrorKind;
  /** For `push-refused`: the refused refs and what the remote said. */
  readonly refusal?: PushRefusal;
  constructor(
    message: string,
    kind: GitOpsErrorKind = 'git',
    refusal?: PushRefusal,
  ) {
    super(message);
    this.name = 'GitOpsError';
    this.kind = kind;
    if (refusal) this.refusal = refusal;
  }
}

/** A push the remote refused, as git reported it. */
export interface PushRefusal {
  /** The refused refs with the remote's reason, e.g. `refs/heads/gpu/ml-llm (pre-receive hook declined)`. */
  refs: string[];
  /** The remote's own `remote:` lines (what its hook printed), trimmed. */
  remoteLines: string[];
  /**
   * A protected-branch rule (GitHub `GH006`, GitLab `GL-HOOK-ERR`, "protected
   * branch"): no rebuild on a newer base can satisfy it.
   */
  protectedBranch: boolean;
}

/**
 * `[remote rejected]` reasons that mean a concurrent update of the ref on the
 * server (receive-pack lost a race for the ref lock), not a rule: the branch
 * moved, a retry can help.
 */
const REF_RACE = /cannot lock ref|incorrect old value/i;

/**
 * The forms git prints a ref the server refused in (git 2.39,
 * `transport.c` `print_ref_status`): `--porcelain`
 * `!<TAB>from:to<TAB>[remote rejected] (reason)` and the human
 * ` ! [remote rejected] from → to (reason)`.
 */
const PORCELAIN_REFUSED =
  /^!\t(?:[^\t]*:)?([^\t]+)\t\[remote rejected\] \((.*)\)\s*$/gm;
const HUMAN_REFUSED =
  /^\s*!\s+\[remote rejected\]\s+\S+\s+->\s+(\S+)\s+\((.*)\)\s*$/gm;
const REMOTE_LINE = /^remote:[ \t]?(.*)$/gm;
const PROTECTED_BRANCH = /\bGH006\b|\bGL-HOOK-ERR\b|protected branch/i;

/** The push refusal in git's output, or undefined when no ref was refused by a rule of the remote. */
export function parsePushRefusal(output: string): PushRefusal | undefined {
  const refs: string[] = [];
  for (const pattern of [PORCELAIN_REFUSED, HUMAN_REFUSED]) {
    for (const [, ref, reason] of output.matchAll(pattern)) {
      if (!REF_RACE.test(reason)) refs.push(`${ref} (${reason})`);
    }
  }
  if (refs.length === 0) return undefined;
  const remoteLines = [...output.matchAll(REMOTE_LINE)]
    .map(([, line]) => line.trim())
    .filter(Boolean);
  return {
    refs,
    remoteLines,
    protectedBranch: PROTECTED_BRANCH.test(output),
  };
}

/** The refusal as it is: the refused refs and, quoted, what the remote said. */
export function pushRefusalMessage(
  repoUrl: string,
  refusal: PushRefusal,
): string {
  const said = refusal.remoteLines.length
    ? `; it said:\n${refusal.remoteLines.map(l => `  remote: ${l}`).join('\n')}`
    : ' and gave no reason';
  return (
    `${repoUrl} refused the push of ${refusal.refs.join(', ')} by a rule of its own${said}\n` +
    `This is not a conflict a retry could solve, so it was not retried: ` +
    `ask the repository's owners about the rule${
      refusal.protectedBranch ? ' (a protected branch)' : ''
    }.`
  );
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

/** The base or the branch moved: the lease was stale or the push was no fast-forward. */
const MOVED_PATTERNS = [
  /\[rejected\].*\((non-fast-forward|fetch first|stale info)\)/i,
  /\[remote rejected\].*\((cannot lock ref|incorrect old value)/i,
];

export function classifyGitFailure(message: string): GitOpsErrorKind {
  // First: a hook's own lines may say anything ("permission denied", "403").
  if (parsePushRefusal(message)) return 'push-refused';
  if (AUTH_PATTERNS.some(p => p.test(message))) return 'auth';
  if (MOVED_PATTERNS.some(p => p.test(message))) return 'push-rejected';
  return 'git';
}
