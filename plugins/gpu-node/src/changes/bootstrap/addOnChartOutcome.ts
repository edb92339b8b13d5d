/**
 * What the bootstrap takes from each add-on chart's outcome
 * (`addOnChart.ts`): the files it writes, the folders whatever applies the
 * cluster must apply, the GPU folder's new resources, the folders it
 * retires, and what the pull request says.
 */
import type { BootstrapFileWrite } from './bootstrapFile';
import type { AddOnChartOutcome, DeclaredInstall } from './addOnChart';
import type { StaleFolder } from './retireBootstrapFolders';
import type { GpuFolder } from './wiring/wireGpuFolders';

/** The bootstrap's folder of the chart, which whatever applies the cluster must apply (`wireGpuFolders`). */
export function addOnChartFolders<D extends DeclaredInstall>(
  outcome: AddOnChartOutcome<D>,
): GpuFolder[] {
  return outcome.kind === 'bootstrap'
    ? [
        {
          folder: outcome.folder,
          what: outcome.what,
          helm: outcome.form === 'kustomize',
        },
      ]
    : [];
}

/** The files the bootstrap writes whole for the chart. */
export function addOnChartFiles<D extends DeclaredInstall>(
  outcome: AddOnChartOutcome<D>,
): BootstrapFileWrite[] {
  if (outcome.kind === 'bootstrap') return outcome.files;
  return outcome.kind === 'proxy' ? [outcome.file] : [];
}

/** The GPU folder's new `resources`: the chart's HelmChartProxy, which the management cluster applies. */
export function addOnChartResources<D extends DeclaredInstall>(
  outcome: AddOnChartOutcome<D>,
): string[] {
  return outcome.kind === 'proxy' ? [outcome.file.path] : [];
}

/** The bootstrap's folder of the chart the cluster no longer wants (`retireBootstrapFolders`). */
export function staleAddOnFolders<D extends DeclaredInstall>(
  outcome: AddOnChartOutcome<D>,
): StaleFolder[] {
  return outcome.kind !== 'bootstrap' && outcome.stale ? [outcome.stale] : [];
}

/** What the pull request says of a release it keeps though the profile no longer wants it. */
export function keptAddOnNotes<D extends DeclaredInstall>(
  outcome: AddOnChartOutcome<D>,
): string[] {
  if (outcome.kind !== 'off' || !outcome.kept) return [];
  const { folder, usedBy, reason } = outcome.kept;
  return [
    `${reason[0].toUpperCase()}${reason.slice(1)}, but ${usedBy} still need the bootstrap's release in \`${folder}/\`: it stays until they are gone (release them), and the bootstrap that runs after removes it.`,
  ];
}

/** What the pull request says of a chart CAAPH installs on the workload cluster. */
export function addOnProxyNotes<D extends DeclaredInstall>(
  outcome: AddOnChartOutcome<D>,
): string[] {
  if (outcome.kind !== 'proxy') return [];
  const { workload, file, chart, installs } = outcome;
  const selector = Object.entries(workload.labels)
    .map(([k, v]) => `\`${k}: ${v}\``)
    .join(', ');
  return [
    `${installs} runs in the workload cluster \`${workload.name}\`, where the GPU nodes are: the Cluster API add-on provider Helm (CAAPH) installs chart \`${chart.chart}\` ${chart.version} there from HelmChartProxy \`${workload.namespace}/${chart.chart}\` (\`${file.path}\`, its values in \`spec.valuesTemplate\`), which selects the Cluster by ${selector}. The management cluster must run CAAPH (\`clusterctl init --addon helm\`).`,
  ];
}
