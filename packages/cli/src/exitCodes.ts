/** The CLI's exit codes are a contract for scripts and CI jobs. */
export const EXIT_OK = 0;
/** Anything unexpected: git failed, a forge answered 5xx, a bug. */
export const EXIT_FAILURE = 1;
/** The user's input is invalid (request, cluster file, flags); nothing was written. */
export const EXIT_INVALID_INPUT = 2;
/** `validate` found problems in the GitOps tree. */
export const EXIT_FINDINGS = 1;
