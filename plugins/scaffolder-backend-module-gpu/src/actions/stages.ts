import type { LoggerService } from '@backstage/backend-plugin-api';

/**
 * Runs one stage of an action (plan, read repo, apply, push, PR) and writes
 * its start, end and duration to the task log, so a slow or failed stage is
 * visible on the task page.
 */
export async function runStage<T>(
  logger: LoggerService,
  name: string,
  fn: () => Promise<T> | T,
): Promise<T> {
  const started = Date.now();
  logger.info(`${name}…`);
  try {
    const result = await fn();
    logger.info(`${name}: done in ${Date.now() - started} ms`);
    return result;
  } catch (error) {
    logger.warn(`${name}: failed after ${Date.now() - started} ms`);
    throw error;
  }
}
