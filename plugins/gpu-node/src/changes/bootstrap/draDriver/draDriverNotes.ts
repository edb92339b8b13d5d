/**
 * What the bootstrap pull request tells its reviewer about NVIDIA's DRA
 * driver: the release it wrote, the one the repository deploys (never
 * edited) and what that one must set (a release of its own left over is
 * retired: `retireBootstrapFolders`). Markdown sentences, one per
 * line of the description's list.
 */
import type { DraDriverOutcome } from './bootstrapDraDriver';
import {
  CONSUMABLE_SHARES_GATE,
  DRA_DRIVER_CHART,
  DRA_DRIVER_CHART_VERSION,
  DRA_DRIVER_NAMESPACE,
  DRA_DRIVER_REPO,
} from './draDriverChart';

export function draDriverNotes(
  outcome: DraDriverOutcome,
  consumableShares: number | undefined,
): string[] {
  // A HelmChartProxy's note is the add-on step's (`addOnProxyNotes`).
  if (outcome.kind === 'off' || outcome.kind === 'proxy') return [];
  if (outcome.kind === 'repository') {
    return [
      ...repositoryDriverNotes(outcome, consumableShares),
      ...outcome.dynamicMig,
    ];
  }
  const gates =
    consumableShares === undefined
      ? 'no feature gate'
      : `\`featureGates.${CONSUMABLE_SHARES_GATE}: true\` with \`consumableShares: "${consumableShares}"\``;
  return [
    `NVIDIA's DRA driver is installed by the bootstrap's release in \`${outcome.folder}/\`: chart \`${DRA_DRIVER_CHART}\` ${DRA_DRIVER_CHART_VERSION} from \`${DRA_DRIVER_REPO}\` in \`${DRA_DRIVER_NAMESPACE}\`, with \`gpuResourcesEnabledOverride: true\` and ${gates}, as the cluster profile's \`dra\` settings say. Its kubelet plugin runs only on nodes labelled \`nvidia.com/gpu.deploy.device-plugin=false\` (the DRA pools), where the GPU Operator runs no device plugin. ${releaseFormNote(outcome)}`,
  ];
}

/** How each form of the bootstrap's release gets applied, and where its objects went. */
function releaseFormNote(
  outcome: Extract<DraDriverOutcome, { kind: 'bootstrap' }>,
): string {
  if (outcome.form === 'kustomize' || !outcome.toolNamespace) {
    return 'It is a kustomize root of its own, built with Helm (`--enable-helm`; kustomize v5.2.0 or later for an oci:// chart).';
  }
  const { namespace, readFrom } = outcome.toolNamespace;
  const where = readFrom
    ? `in \`${namespace}\`, beside ${readFrom}`
    : `in \`${namespace}\` (no ${outcome.form === 'flux' ? 'Flux object' : 'Argo CD Application'} of this repository names its namespace, so the install default: move it where yours runs)`;
  return outcome.form === 'flux'
    ? `It is a Flux HelmRepository (\`type: oci\`) and HelmRelease ${where}, as this repository installs its charts: Flux installs the chart once the folder is applied.`
    : `It is an Argo CD Application of the chart ${where}, as this repository installs its charts: Argo CD installs the chart once the folder is applied (the registry is public; Argo CD names it without \`oci://\`).`;
}

/** What the notes say of each driver the repository deploys. */
function repositoryDriverNotes(
  outcome: Extract<DraDriverOutcome, { kind: 'repository' }>,
  consumableShares: number | undefined,
): string[] {
  return outcome.declared.map(driver =>
    [
      `NVIDIA's DRA driver is deployed by ${driver.setting}; the bootstrap never edits it.`,
      driver.servesGpus
        ? ''
        : ' It publishes no GPUs: set `gpuResourcesEnabledOverride: true` (and keep `resources.gpus.enabled` true), or no dra request is ever allocated.',
      consumableShares === undefined
        ? ''
        : ` The cluster profile shares every GPU ${consumableShares} ways (\`dra.consumableShares\`): set \`consumableShares: "${consumableShares}"\` and \`featureGates.${CONSUMABLE_SHARES_GATE}: true\` there.`,
    ].join(''),
  );
}
