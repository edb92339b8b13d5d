/** Stage progress with durations, through a (redacting) logger. */
import type { PublishLogger } from '../redact';

/** @public */
export interface StageTiming {
  stage: string;
  ms: number;
}

export async function runStage<T>(
  logger: PublishLogger,
  timings: StageTiming[],
  stage: string,
  work: () => Promise<T>,
): Promise<T> {
  const started = Date.now();
  logger.info(`${stage}…`);
  try {
    const result = await work();
    const ms = Date.now() - started;
    timings.push({ stage, ms });
    logger.info(`${stage}: done in ${ms} ms`);
    return result;
  } catch (error) {
    // Info, not a warning: a failed stage is not always a fault (the first,
    // optimistic push of a re-run is refused by design); the caller warns
    // when it retries and the error says what went wrong when it gives up.
    logger.info(`${stage}: failed after ${Date.now() - started} ms`);
    throw error;
  }
}
