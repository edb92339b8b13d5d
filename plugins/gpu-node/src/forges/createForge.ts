/** Picks the forge implementation for a kind; one place knows them all. */
import { GiteaForge } from './gitea';
import { GithubForge } from './github';
import { GitlabForge } from './gitlab';
import type { ForgeOptions } from './forgeClient';
import { LocalForge } from './local';
import type { Forge, ForgeKind } from './types';

/** @public */
export const FORGE_KINDS: readonly ForgeKind[] = [
  'local',
  'github',
  'gitlab',
  'gitea',
];

/** @public */
export function createForge(
  kind: ForgeKind,
  options: ForgeOptions = {},
): Forge {
  switch (kind) {
    case 'local':
      return new LocalForge({
        token: options.token,
        timeoutMs: options.timeoutMs,
        redactor: options.redactor,
      });
    case 'github':
      return new GithubForge(options);
    case 'gitlab':
      return new GitlabForge(options);
    case 'gitea':
      return new GiteaForge(options);
    default:
      throw new Error(
        `forge: unknown kind "${String(kind)}" (expected one of ${FORGE_KINDS.join(', ')})`,
      );
  }
}
