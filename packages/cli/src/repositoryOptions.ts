import path from 'node:path';
import type {
  ForgeKind,
  PublishLogger,
  Redactor,
} from '@gpu-gitops/plugin-gpu-node';
import type { CliIo } from './io';
import { requireOption, type CommandOptions } from './options';
import { gpuCommon, gpuNode } from './libraries';

/** The environment variable that holds each forge's token in the CLI. */
export const FORGE_TOKEN_ENV: Record<ForgeKind, string | undefined> = {
  local: undefined,
  github: 'GITHUB_TOKEN',
  gitlab: 'GITLAB_TOKEN',
  gitea: 'GITEA_TOKEN',
};

function forgeKind(value: string | undefined): ForgeKind {
  const kind = (value ?? 'local') as ForgeKind;
  if (!gpuNode.FORGE_KINDS.includes(kind)) {
    throw new gpuCommon.GpuInputError([
      {
        path: '--forge',
        rule: 'enum',
        message: `"${value}" is not a forge; use one of ${gpuNode.FORGE_KINDS.join(', ')}`,
      },
    ]);
  }
  return kind;
}

/** What `pr` and `update` need to reach the GitOps repository and its forge. */
export interface RepositoryOptions {
  repoUrl: string;
  baseBranch: string;
  forge: ForgeKind;
  forgeApiBaseUrl?: string;
  token?: string;
  cacheDir?: string;
  /** The limit of each git command and forge request (default 60 s). */
  timeoutMs?: number;
  redactor: Redactor;
  /** Progress on stderr (redacted), silent with --json. */
  logger: PublishLogger;
}

/**
 * `--repo` checked, a local path resolved against the working directory the
 * command runs in (README: "`--repo` is … a local path"): git runs the clone
 * from the cache folder, where a relative path names nothing, or something else.
 */
function repoUrlFromCwd(repo: string, cwd: string): string {
  const kind = gpuCommon.checkGitOpsRepoUrl(repo, '--repo', {
    tokenHint: `set ${Object.values(FORGE_TOKEN_ENV).filter(Boolean).join(', ')} instead`,
  });
  return kind === 'path' ? path.resolve(cwd, repo) : repo;
}

/**
 * Reads `--repo`, `--base`, `--forge`, `--api-url`, `--cache-dir`,
 * `--timeout` and the forge's token from the environment. A URL carrying a
 * token is refused first (exit 2, shown redacted), before any file is read or
 * any git process runs.
 */
export function readRepositoryOptions(
  options: CommandOptions,
  io: CliIo,
): RepositoryOptions {
  const repoUrl = repoUrlFromCwd(requireOption(options, 'repo'), io.cwd);
  const forge = forgeKind(options.forge as string | undefined);
  const forgeApiBaseUrl = options['api-url'] as string | undefined;
  if (forgeApiBaseUrl !== undefined)
    gpuCommon.checkForgeApiUrl(forgeApiBaseUrl, '--api-url');
  const timeoutMs = gpuCommon.gitOpsTimeoutMs(
    options.timeout as string | undefined,
    '--timeout',
  );
  const tokenEnv = FORGE_TOKEN_ENV[forge];
  const token = tokenEnv ? io.env[tokenEnv] || undefined : undefined;
  const redactor = new gpuNode.Redactor(token ? [token] : []);
  const log = (line: string) => {
    if (!options.json) io.stderr(`${redactor.redact(line)}\n`);
  };
  return {
    repoUrl,
    baseBranch: (options.base as string) || 'main',
    forge,
    forgeApiBaseUrl,
    token,
    cacheDir: options['cache-dir'] as string | undefined,
    timeoutMs,
    redactor,
    logger: { info: log, warn: log },
  };
}
