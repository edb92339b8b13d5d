import { pullRequestPageUrl } from '@gpu-gitops/plugin-gpu-common';
import type { ForgeKind } from '@gpu-gitops/plugin-gpu-node';

/**
 * The link a task shows for its pull request. A browser refuses the local
 * forge's `file://` branch URL, so a local pull request links to the app's
 * review page (plugin gpu: description, diff, merge, close); GitHub's,
 * GitLab's and Gitea's keep the forge's own page.
 */
export function pullRequestLink(options: {
  forge: ForgeKind;
  branch: string;
  /** What the forge answered (undefined when nothing was opened). */
  forgeUrl: string | undefined;
  /** `app.baseUrl` (app-relative without it). */
  appBaseUrl?: string;
}): string {
  if (!options.forgeUrl) return '';
  return options.forge === 'local'
    ? pullRequestPageUrl(options.branch, options.appBaseUrl)
    : options.forgeUrl;
}
