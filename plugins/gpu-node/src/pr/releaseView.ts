/**
 * What a release pull request says, as plain data for its templates: the
 * pools before and after, the money saved, and in words what goes and what
 * stays. Every number comes from the release plan, so the body, the action's
 * outputs and the CLI's JSON agree.
 */
import {
  formatUsd,
  type ReleaseLeftObject,
  type ReleasePlan,
} from '@gpu-gitops/plugin-gpu-common';
import { jobTemplateWarning } from '../changes/immutableJobTemplate';
import type { FileChange } from '../changes/types';

/** @public */
export interface ReleasePullRequestView {
  request: { namespace: string; name: string; owner: string };
  reason?: string;
  pools: {
    name: string;
    removed: boolean;
    releasedUnits: number;
    resourceName: string;
    nodesBefore: number;
    nodesAfter: number;
    before: string;
    after: string;
  }[];
  saved: string;
  /** What it saves and why (the plan's `savings`): a pool keeping its nodes frees no money. */
  savings: string;
  /** True when no money is saved: the title says why in a few words. */
  savesNothing: boolean;
  priceKnown: boolean;
  removes: string[];
  keeps: string[];
  files: { path: string; action: FileChange['action'] }[];
  /** What the reviewer must do beyond merging, e.g. recreate an existing Job whose template the release gives back. */
  warnings: string[];
}

export function buildReleaseView(
  plan: ReleasePlan,
  files: Pick<FileChange, 'path' | 'action'>[],
  reason?: string,
  leaves: readonly ReleaseLeftObject[] = [],
): ReleasePullRequestView {
  const { namespace, name } = plan.request.metadata;
  const existing = plan.request.spec.workload.existing;
  const removes = [
    `the request record of \`${namespace}/${name}\``,
    existing
      ? `the GPU patch of ${existing.kind} \`${existing.name}\` (the workload stays, as it was before the request)`
      : `the workload \`${name}\` the request created`,
    ...plan.pools.map(p =>
      p.removed
        ? `pool \`${p.name}\`: its NodePool and the NodeOverlays and node class the product wrote for it (no request holds it any more)`
        : `${p.releasedUnits} × \`${p.resourceName}\` from pool \`${p.name}\`'s ledger; its limit follows`,
    ),
    ...plan.unusedDevicePluginConfigs.map(
      c => `device-plugin config \`${c}\` (its file and ConfigMap key)`,
    ),
    ...plan.unusedMigConfigs.map(c => `mig-parted entry \`${c}\``),
  ];
  const keeps = [
    ...leaves.map(
      o =>
        `${o.kind} \`${o.name}\` (\`${o.path}\`): the product did not write it, so the release leaves it; delete it in this pull request if it should go too`,
    ),
    ...plan.pools
      .filter(p => !p.removed)
      .map(p =>
        p.ledger.length > 0
          ? `pool \`${p.name}\` for ${p.ledger.map(e => `\`${e.request}\``).join(', ')}`
          : `pool \`${p.name}\`, written by hand: its owners decide whether it goes`,
      ),
  ];
  return {
    request: { namespace, name, owner: plan.request.spec.owner },
    ...(reason ? { reason } : {}),
    pools: plan.pools.map(p => ({
      name: p.name,
      removed: p.removed,
      releasedUnits: p.releasedUnits,
      resourceName: p.resourceName,
      nodesBefore: p.nodesBefore,
      nodesAfter: p.nodesAfter,
      before: formatUsd(p.usdPerMonthBefore),
      after: formatUsd(p.usdPerMonthAfter),
    })),
    saved: formatUsd(plan.savedUsdPerMonth),
    savings: plan.savings,
    savesNothing: plan.savedUsdPerMonth === 0,
    priceKnown: plan.priceKnown,
    removes,
    keeps,
    files: files.map(f => ({ path: f.path, action: f.action })),
    // The release's own change of a Job's pod template is refused in place
    // too; no tree here to name the applier, so the generic step.
    warnings:
      existing?.kind === 'Job'
        ? [jobTemplateWarning({ namespace, name: existing.name }, [])]
        : [],
  };
}
