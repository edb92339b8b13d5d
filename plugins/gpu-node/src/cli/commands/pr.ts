import {
  checkGitOpsRepoUrl,
  gitOpsTimeoutMs,
  GpuInputError,
} from '@gpu-gitops/plugin-gpu-common';
import { FORGE_KINDS } from '../../forges/createForge';
import type { ForgeKind } from '../../forges/types';
import { publishGpuRequest } from '../../publish';
import { Redactor } from '../../redact';
import type { CliIo } from '../io';
import { EXIT_OK } from '../exit-codes';
import { requireOption, type CommandOptions } from '../options';
import {
  readCatalogFile,
  readRequestCluster,
  readRequestFile,
} from '../read-input';

export const prUsage =
  'gpu-gitops pr --request req.yaml --repo URL [--base main] [--forge local|github|gitlab|gitea] ' +
  '[--api-url URL] [--cluster cluster.yaml] [--catalog catalog.yaml] [--cache-dir DIR] [--timeout SECONDS] ' +
  '[--draft] [--dry-run] [--json]';

/** The environment variable that holds each forge's token in the CLI. */
export const FORGE_TOKEN_ENV: Record<ForgeKind, string | undefined> = {
  local: undefined,
  github: 'GITHUB_TOKEN',
  gitlab: 'GITLAB_TOKEN',
  gitea: 'GITEA_TOKEN',
};

export function forgeKind(value: string | undefined): ForgeKind {
  const kind = (value ?? 'local') as ForgeKind;
  if (!FORGE_KINDS.includes(kind)) {
    throw new GpuInputError([
      {
        path: '--forge',
        rule: 'enum',
        message: `"${value}" is not a forge; use one of ${FORGE_KINDS.join(', ')}`,
      },
    ]);
  }
  return kind;
}

/** Opens (or updates) the pull request for a request; `--dry-run` prints the diff only. */
export async function runPr(
  options: CommandOptions,
  io: CliIo,
): Promise<number> {
  // First: a URL carrying a token is refused (exit 2, shown redacted) before
  // any file is read or any git process runs.
  const repoUrl = requireOption(options, 'repo');
  checkGitOpsRepoUrl(repoUrl, '--repo', {
    tokenHint: `set ${Object.values(FORGE_TOKEN_ENV).filter(Boolean).join(', ')} instead`,
  });
  const kind = forgeKind(options.forge as string | undefined);
  // The limit of each git command and forge request (default 60 s).
  const timeoutMs = gitOpsTimeoutMs(
    options.timeout as string | undefined,
    '--timeout',
  );
  const request = await readRequestFile(
    requireOption(options, 'request'),
    io.cwd,
  );
  const cluster = await readRequestCluster(
    request,
    options.cluster as string,
    io.cwd,
  );
  const catalog = await readCatalogFile(options.catalog as string, io.cwd);
  const tokenEnv = FORGE_TOKEN_ENV[kind];
  const token = tokenEnv ? io.env[tokenEnv] || undefined : undefined;
  const redactor = new Redactor(token ? [token] : []);
  const log = (line: string) => {
    if (!options.json) io.stderr(`${redactor.redact(line)}\n`);
  };

  try {
    const result = await publishGpuRequest({
      request,
      cluster,
      catalog,
      repoUrl,
      baseBranch: (options.base as string) || 'main',
      forge: kind,
      forgeApiBaseUrl: options['api-url'] as string | undefined,
      token,
      redactor,
      draft: Boolean(options.draft),
      dryRun: Boolean(options['dry-run']),
      cacheDir: options['cache-dir'] as string | undefined,
      timeoutMs,
      logger: { info: log, warn: log },
    });
    const summary = {
      branch: result.branch,
      commit: result.commit,
      url: result.url,
      changed: result.changed,
      files: result.files,
      dryRun: Boolean(options['dry-run']),
      title: result.title,
      body: result.body,
    };
    if (options.json) {
      io.stdout(
        redactor.redact(
          `${JSON.stringify(
            {
              ...summary,
              ...(options['dry-run'] ? { diff: result.diff } : {}),
            },
            null,
            2,
          )}\n`,
        ),
      );
    } else if (options['dry-run']) {
      io.stdout(redactor.redact(result.diff ?? ''));
    } else if (!result.changed) {
      io.stdout(
        `the repository already holds this request: no change, no pull request\n`,
      );
    } else {
      io.stdout(
        redactor.redact(
          [
            result.title,
            `branch ${result.branch} (${result.commit})`,
            result.url,
            ...result.files.map((f: string) => `  ${f}`),
            '',
          ].join('\n'),
        ),
      );
    }
    return EXIT_OK;
  } catch (error) {
    if (error instanceof Error) error.message = redactor.redact(error.message);
    throw error;
  }
}
