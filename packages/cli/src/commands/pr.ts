import type { CliIo } from '../io';
import { EXIT_OK } from '../exitCodes';
import type { CommandOptions } from '../options';
import { readRepositoryOptions } from '../repositoryOptions';
import { readRequestInputs } from '../readInput';
import { gpuCommon, gpuNode } from '../libraries';

/** Opens (or updates) the pull request for a request; `--dry-run` prints the diff only. */
export async function runPr(
  options: CommandOptions,
  io: CliIo,
): Promise<number> {
  const target = readRepositoryOptions(options, io);
  const { redactor } = target;
  const { request, cluster, catalog } = await readRequestInputs(
    options,
    io.cwd,
  );
  // A request sent already expired would be released before anyone merged it.
  gpuCommon.checkExpiryAtCreation(request, new Date());

  try {
    const result = await gpuNode.publishGpuRequest({
      ...target,
      request,
      cluster,
      catalog,
      draft: Boolean(options.draft),
      dryRun: Boolean(options['dry-run']),
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
              // Where the time went, step by step (what `npm run bench` reports).
              stages: result.stages,
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
