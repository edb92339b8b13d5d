import type { JsonObject } from '@backstage/types';
import type { ActionContext } from '@backstage/plugin-scaffolder-node';
import type { GitOpsTarget } from './gitopsTarget';
import { pullRequestLink } from './pullRequestLink';
import { runStage } from './stages';

/**
 * A publishing step of an action. A dry run pushes nothing. A real run
 * pushes and opens the pull request once per task: its result is stored
 * under `key` (`ctx.checkpoint`), so a recovered task does not open it
 * twice; its link is the one a task shows (`pullRequestLink`).
 */
export async function publishOnce<
  R extends { branch: string; url?: string; stages: unknown[] },
>(
  ctx: Pick<ActionContext<any, any>, 'isDryRun' | 'logger' | 'checkpoint'>,
  target: Pick<GitOpsTarget, 'forge'>,
  appBaseUrl: string | undefined,
  key: string,
  publish: (dryRun: boolean) => Promise<R>,
): Promise<R> {
  if (ctx.isDryRun) {
    return runStage(ctx.logger, 'Dry run (nothing pushed)', () =>
      publish(true),
    );
  }
  const stored = await ctx.checkpoint({
    key,
    fn: async () => {
      const published = await runStage(
        ctx.logger,
        `Push branch and open ${target.forge} pull request`,
        () => publish(false),
      );
      const link = pullRequestLink({
        forge: target.forge,
        branch: published.branch,
        forgeUrl: published.url,
        appBaseUrl,
      });
      // The stage timings went to the task log already.
      return {
        ...published,
        url: link,
        stages: [],
      } as unknown as JsonObject;
    },
  });
  return stored as unknown as R;
}
