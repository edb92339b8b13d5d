import type { z as zod } from 'zod/v3';
import { InputError } from '@backstage/errors';
import {
  checkGitOpsRepoUrl,
  isGpuInputError,
} from '@gpu-gitops/plugin-gpu-common';
import type { LoggerService } from '@backstage/backend-plugin-api';
import type { GpuRequest } from '@gpu-gitops/plugin-gpu-common';
import {
  DEFAULT_AUTHOR,
  forgeApiBaseUrl,
  FsRepoTree,
  GitOpsRepository,
  gitOpsCacheDirs,
  gitTokenUsername,
  resolveGitCredentials,
  resolveLocalRepoPath,
  sparseFoldersFor,
  clusterReach,
  type ForgeKind,
  type GitOpsConfig,
  type GitCredentials,
  type RepoTree,
} from '@gpu-gitops/plugin-gpu-node';
import type { GpuActionServices } from '../services/gpuActionServices';

type Z = typeof zod;

/** Inputs that point an action at a GitOps repository other than the configured one. */
export const gitopsTargetInputProperties = {
  repoUrl: (z: Z) =>
    z
      .string()
      .optional()
      .describe('GitOps repository URL (default: gpu.gitops.repoUrl)'),
  baseBranch: (z: Z) =>
    z
      .string()
      .optional()
      .describe('Base branch (default: gpu.gitops.baseBranch or main)'),
  forge: (z: Z) =>
    z
      .enum(['local', 'github', 'gitlab', 'gitea'])
      .optional()
      .describe(
        'Where the pull request lives (default: gpu.gitops.forge or local)',
      ),
  token: (z: Z) =>
    z
      .string()
      .optional()
      .describe(
        'User token for the GitOps repository (pass it from secrets); default: the Backstage integration for the host',
      ),
};

export interface GitOpsTargetInput {
  repoUrl?: string;
  baseBranch?: string;
  forge?: ForgeKind;
  token?: string;
}

export interface GitOpsTarget extends Pick<
  GitOpsConfig,
  'repoUrl' | 'baseBranch' | 'forge' | 'author' | 'timeoutMs'
> {
  credentials: GitCredentials;
  /** The publishers' folder of the cache root (gpu-node `gitOpsCacheDirs`). */
  cacheDir: string;
}

/** The `repoUrl` input against gpu-common's URL rule, as an InputError that shows it redacted. */
function checkRepoUrlInput(repoUrl: string): void {
  try {
    checkGitOpsRepoUrl(repoUrl, 'repoUrl', {
      tokenHint:
        'pass the token through secrets, or let the integration for the host provide it',
    });
  } catch (error) {
    if (!isGpuInputError(error)) throw error;
    throw new InputError(
      error.issues
        .map(i => `input "repoUrl": ${i.message} [${i.rule}]`)
        .join('\n'),
    );
  }
}

/**
 * The repository, branch, forge and credentials an action works on: inputs
 * override `gpu.gitops`. Returns undefined when neither names a repository.
 */
export async function resolveGitOpsTarget(
  input: GitOpsTargetInput,
  services: GpuActionServices,
): Promise<GitOpsTarget | undefined> {
  const settings = services.gitops;
  // Checked before it is resolved (`user@host:path` would become a folder
  // path) and before anything runs; `gpu.gitops.repoUrl` was checked at start-up.
  if (input.repoUrl) checkRepoUrlInput(input.repoUrl);
  const repoUrl = input.repoUrl
    ? resolveLocalRepoPath(input.repoUrl)
    : settings?.repoUrl;
  if (!repoUrl) return undefined;
  const forge = input.forge || settings?.forge || 'local';
  const credentials = await resolveGitCredentials({
    repoUrl,
    forge,
    integrations: services.integrations,
    githubCredentialsProvider: services.githubCredentialsProvider,
    userToken: input.token || undefined,
  });
  return {
    repoUrl,
    baseBranch: input.baseBranch || settings?.baseBranch || 'main',
    forge,
    author: settings?.author ?? DEFAULT_AUTHOR,
    cacheDir: (settings?.cacheDirs ?? gitOpsCacheDirs()).publish,
    timeoutMs: settings?.timeoutMs,
    credentials,
  };
}

/** The target of an action that must have a repository: refused, naming the input, when none is given or configured. */
export async function requireGitOpsTarget(
  input: GitOpsTargetInput,
  services: GpuActionServices,
): Promise<GitOpsTarget> {
  const target = await resolveGitOpsTarget(input, services);
  if (!target) {
    throw new InputError(
      'input "repoUrl": no GitOps repository given and gpu.gitops.repoUrl is not configured [required]',
    );
  }
  return target;
}

/** Basic-auth user git should pair with the token, per forge. */
export function tokenUsername(target: GitOpsTarget): string | undefined {
  return gitTokenUsername(target.forge, target.credentials);
}

/**
 * Where a publish goes and with which credentials, as gpu-node's publishers
 * take it (`GitOpsTargetOptions`): the repository, its forge and API, the
 * token (git gets it in a header), the author, cache and time limit.
 */
export function publishTarget(
  target: GitOpsTarget,
  services: Pick<GpuActionServices, 'integrations'>,
) {
  return {
    repoUrl: target.repoUrl,
    baseBranch: target.baseBranch,
    forge: target.forge,
    forgeApiBaseUrl: forgeApiBaseUrl(
      target.repoUrl,
      target.forge,
      services.integrations,
    ),
    token: target.credentials.token,
    tokenUsername: tokenUsername(target),
    author: target.author,
    cacheDir: target.cacheDir,
    timeoutMs: target.timeoutMs,
  };
}

/**
 * The GitOps repository of `target` with its credentials; a wait for another
 * run's clone lock is told through `logger` (on the task page).
 */
export function gitopsRepository(
  target: GitOpsTarget,
  logger: LoggerService,
): GitOpsRepository {
  return new GitOpsRepository({
    repoUrl: target.repoUrl,
    baseBranch: target.baseBranch,
    cacheDir: target.cacheDir,
    token: target.credentials.token,
    tokenUsername: tokenUsername(target),
    author: target.author,
    timeoutMs: target.timeoutMs,
    logger,
  });
}

/**
 * Fetches the base branch into the cached clone (sparse: what a run of this
 * request reads, see `sparseFoldersFor`; all of it for an existing workload)
 * and runs `work` on it while the clone is locked, so no other run changes
 * it meanwhile. Without a request: the cluster's folders, or `folders` when
 * the caller reads others.
 */
export async function withGitOpsBase<T>(
  target: GitOpsTarget,
  request: GpuRequest | undefined,
  cluster: string,
  logger: LoggerService,
  work: (base: { tree: RepoTree; dir: string; baseSha: string }) => Promise<T>,
  folders: string[] = sparseFoldersFor(undefined, cluster, request),
): Promise<T> {
  const repository = gitopsRepository(target, logger);
  logger.info(
    `Fetch ${target.baseBranch} of the GitOps repository (credentials: ${target.credentials.source})…`,
  );
  return repository.withBase(
    folders,
    ({ workDir, baseSha }) =>
      work({ tree: new FsRepoTree(workDir), dir: workDir, baseSha }),
    undefined,
    // What the cluster applies from folders of no cluster (its GPU Operator
    // in `infrastructure/`), as the publisher's checkout holds it.
    clusterReach(undefined, cluster),
  );
}
