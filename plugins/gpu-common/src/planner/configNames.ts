import { GpuInputError } from '../errors';
import { sameContent } from './contentHash';
import { fitName, freeName } from './poolNaming';

/** Label values (`nvidia.com/device-plugin.config`, `nvidia.com/mig.config`) hold at most 63 chars. */
const MAX_LABEL_VALUE = 63;

/**
 * A config name that never points at different content in the repository:
 * the name itself if unused or holding the same content, else `<name>-2`,
 * `<name>-3`... Same inputs and repository, same name.
 */
export function nonCollidingConfigName(
  name: string,
  content: unknown,
  existing: Record<string, unknown> | undefined,
  path: string,
  what: string,
): string {
  const taken = (candidate: string) =>
    existing !== undefined &&
    Object.prototype.hasOwnProperty.call(existing, candidate) &&
    !sameContent(existing[candidate], content);
  const free = freeName(fitName(name, MAX_LABEL_VALUE), taken, MAX_LABEL_VALUE);
  if (free === undefined) {
    throw new GpuInputError([
      {
        path,
        rule: 'name-conflict',
        message: `every candidate name for the ${what} "${name}" already holds different content in the repository`,
      },
    ]);
  }
  return free;
}
