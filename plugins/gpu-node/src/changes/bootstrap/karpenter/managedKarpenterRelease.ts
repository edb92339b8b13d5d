/**
 * The Karpenter release the bootstrap writes and keeps when the repository
 * has none: a kustomization whose `helmCharts` entry pins the chart to the
 * cluster profile's `karpenterVersion`, and its values file, whose gates
 * follow the profile's `nodeOverlay` and, on AWS, `dra.karpenterNvidiaGate`.
 * A later run changes the version and those gates only, so what the platform team added (the cluster's name, its IAM role,
 * comments) stays.
 */
import { posix } from 'node:path';
import { Document, isMap, isScalar, type YAMLMap } from 'yaml';
import {
  GpuInputError,
  type ClusterProfile,
} from '@gpu-gitops/plugin-gpu-common';
import { getIn } from '../../../repo/yamlObjects';
import { relativeTo } from '../../../kustomize/editKustomization';
import type { StagedTree } from '../../stagedTree';
import { ensureSeq, YamlFile } from '../../yamlFile';
import {
  bootstrapDocument,
  bootstrapYaml,
  isBlank,
  isBootstrapFile,
  mayWriteOver,
  notWrittenByBootstrap,
} from '../bootstrapFile';
import {
  KARPENTER_CHART,
  karpenterChartVersion,
  NODE_OVERLAY_VALUE_PATH,
  type KarpenterChart,
} from './karpenterChart';
import {
  DRA_NVIDIA_GATE_VALUE_PATH,
  managedDraNvidiaGate,
} from './draNvidiaGate';

/** Where the bootstrap's release lives. */
export interface ManagedReleasePaths {
  karpenterKustomization: string;
  karpenterValues: string;
}

/** What a run did to the bootstrap's release. */
export interface ManagedReleaseChange {
  change: 'created' | 'updated' | 'unchanged';
  folder: string;
  /** What the release pinned and set before this run changed it. */
  before: { version?: string; nodeOverlay?: unknown };
  /** Required values (`settings.clusterName`) still blank. */
  blankRequired: string[];
}

/** True when the bootstrap's release is there (its kustomization carries the bootstrap's header). */
export async function hasManagedRelease(
  staged: StagedTree,
  paths: ManagedReleasePaths,
): Promise<boolean> {
  return isBootstrapFile(await staged.read(paths.karpenterKustomization));
}

/** Refuses to write over a file of the release's folder the bootstrap did not write. */
function refuseHandWritten(path: string): never {
  throw new GpuInputError([
    notWrittenByBootstrap(
      path,
      "Karpenter's Helm release",
      `Move it, or declare Karpenter in a way the bootstrap recognises (a kustomize helmCharts entry, a Flux HelmRelease or an Argo CD Application of the chart "${KARPENTER_CHART}"), then run the bootstrap again`,
    ),
  ]);
}

function newKustomization(
  paths: ManagedReleasePaths,
  chart: KarpenterChart,
  version: string,
): string {
  return bootstrapYaml(
    {
      apiVersion: 'kustomize.config.k8s.io/v1beta1',
      kind: 'Kustomization',
      helmCharts: [helmChartEntry(paths, chart, version)],
    },
    [
      "Karpenter's Helm release, pinned to the cluster profile's karpenterVersion; the values in values.yaml.",
      'A kustomize root of its own, built with Helm (kustomize --enable-helm; an oci:// chart repository needs kustomize v5.2.0 or later), e.g. by its own Argo CD Application.',
    ].join('\n'),
  );
}

function helmChartEntry(
  paths: ManagedReleasePaths,
  chart: KarpenterChart,
  version: string,
) {
  return {
    name: KARPENTER_CHART,
    repo: chart.repo,
    version,
    releaseName: KARPENTER_CHART,
    namespace: chart.namespace,
    includeCRDs: true,
    valuesFile: relativeTo(paths.karpenterKustomization, paths.karpenterValues),
  };
}

/** Puts `comment` on the line before the key at `path` of `doc`. */
function commentKey(doc: Document, path: readonly string[], comment: string) {
  const parent = doc.getIn(path.slice(0, -1), true);
  if (!isMap(parent)) return;
  const pair = (parent as YAMLMap).items.find(
    item => isScalar(item.key) && item.key.value === path[path.length - 1],
  );
  if (pair && isScalar(pair.key)) pair.key.commentBefore = ` ${comment}`;
}

function newValues(cluster: ClusterProfile, chart: KarpenterChart): string {
  const values: Record<string, unknown> = {};
  for (const { path } of chart.requiredValues) {
    setPlain(values, path, '');
  }
  setPlain(values, NODE_OVERLAY_VALUE_PATH, cluster.nodeOverlay);
  const draGate = managedDraNvidiaGate(cluster);
  if (draGate !== undefined) {
    setPlain(values, DRA_NVIDIA_GATE_VALUE_PATH, draGate);
  }
  const doc = new Document(values);
  for (const { path, what } of chart.requiredValues) {
    commentKey(doc, path, `REQUIRED before the first sync: ${what}.`);
  }
  commentKey(
    doc,
    NODE_OVERLAY_VALUE_PATH,
    "NodeOverlay (alpha, off by default): without it Karpenter never launches a node for time slices, MPS or mixed-strategy MIG. Follows the cluster profile's nodeOverlay.",
  );
  if (draGate !== undefined) {
    commentKey(
      doc,
      DRA_NVIDIA_GATE_VALUE_PATH,
      "AWS feature gate DRANVIDIAGPU (alpha, Karpenter 1.15 and later, off by default): without it Karpenter never launches a node for a pending DRA claim. Follows the cluster profile's dra.karpenterNvidiaGate.",
    );
  }
  return bootstrapDocument(
    doc,
    [
      `Helm values of Karpenter (charts/karpenter/values.yaml of ${chart.upstream} at the pinned version).`,
      'The bootstrap sets settings.featureGates.nodeOverlay (and, when the profile states it, settings.awsFeatureGates.draNVIDIAGPU); every other value here is yours and kept.',
      `Also needed before the first sync: ${chart.alsoNeeded}.`,
    ].join('\n'),
  );
}

function setPlain(
  target: Record<string, unknown>,
  path: readonly string[],
  value: unknown,
): void {
  let node = target;
  for (const key of path.slice(0, -1)) {
    node[key] ??= {};
    node = node[key] as Record<string, unknown>;
  }
  node[path[path.length - 1]] = value;
}

/**
 * Pins the `karpenter` entry of the kustomization's `helmCharts` to
 * `version` (adding the entry when someone removed it); returns the version
 * it pinned before.
 */
function pinKustomization(
  file: YamlFile,
  paths: ManagedReleasePaths,
  chart: KarpenterChart,
  version: string,
): string | undefined {
  const doc = file.firstMap();
  const entries = ensureSeq(doc, ['helmCharts']);
  const entry = entries.items.find(
    (item): item is YAMLMap =>
      isMap(item) && item.get('name') === KARPENTER_CHART,
  );
  if (!entry) {
    entries.items.push(doc.createNode(helmChartEntry(paths, chart, version)));
    file.modified = true;
    return undefined;
  }
  const before = entry.get('version');
  if (String(before) !== version) {
    entry.set('version', version);
    file.modified = true;
  }
  return before === undefined ? undefined : String(before);
}

/** Sets the gate at `path` in the values file to the profile's; returns what it was. */
function setGate(
  file: YamlFile,
  path: readonly string[],
  value: boolean,
): unknown {
  const doc = file.firstMap();
  const before = doc.getIn([...path]);
  if (before !== value) {
    doc.setIn([...path], value);
    file.modified = true;
  }
  return before;
}

/** A file of the release as it is: undefined when there is none, or a blank one (as good as none: `mayWriteOver`). */
async function readReleaseFile(
  staged: StagedTree,
  path: string,
): Promise<string | undefined> {
  const text = await staged.read(path);
  return isBlank(text) ? undefined : text;
}

/**
 * Refuses (before anything is written) a file in the release's way that
 * the bootstrap did not write. Once the release is the bootstrap's, its
 * values file is the team's to fill in: only the gates change there. A new
 * release writes it whole.
 */
function refuseFilesInTheWay(
  paths: ManagedReleasePaths,
  kustomizationText: string | undefined,
  valuesText: string | undefined,
): void {
  if (!mayWriteOver(kustomizationText)) {
    refuseHandWritten(paths.karpenterKustomization);
  }
  if (kustomizationText === undefined && !mayWriteOver(valuesText)) {
    refuseHandWritten(paths.karpenterValues);
  }
}

/** Writes the release's kustomization, or pins the one there; returns the version it pinned before. */
async function writeKustomization(
  staged: StagedTree,
  paths: ManagedReleasePaths,
  chart: KarpenterChart,
  version: string,
  text: string | undefined,
): Promise<string | undefined> {
  if (text === undefined) {
    await staged.write(
      paths.karpenterKustomization,
      newKustomization(paths, chart, version),
    );
    return undefined;
  }
  const file = YamlFile.parse(paths.karpenterKustomization, text);
  const before = pinKustomization(file, paths, chart, version);
  const content = file.newContent();
  if (content !== undefined) {
    await staged.write(paths.karpenterKustomization, content);
  }
  return before;
}

/** Writes the release's values, or sets the profile's gates in the ones there; returns the NodeOverlay gate before. */
async function writeValues(
  staged: StagedTree,
  paths: ManagedReleasePaths,
  cluster: ClusterProfile,
  chart: KarpenterChart,
  text: string | undefined,
): Promise<unknown> {
  if (text === undefined) {
    await staged.write(paths.karpenterValues, newValues(cluster, chart));
    return undefined;
  }
  const file = YamlFile.parse(paths.karpenterValues, text);
  const before = setGate(file, NODE_OVERLAY_VALUE_PATH, cluster.nodeOverlay);
  const draGate = managedDraNvidiaGate(cluster);
  if (draGate !== undefined) {
    setGate(file, DRA_NVIDIA_GATE_VALUE_PATH, draGate);
  }
  const content = file.newContent();
  if (content !== undefined) await staged.write(paths.karpenterValues, content);
  return before;
}

/** The chart's required values (`settings.clusterName`) the values file leaves blank. */
async function blankRequiredValues(
  staged: StagedTree,
  paths: ManagedReleasePaths,
  chart: KarpenterChart,
): Promise<string[]> {
  const values = YamlFile.parse(
    paths.karpenterValues,
    await staged.read(paths.karpenterValues),
  ).values()[0];
  return chart.requiredValues
    .filter(({ path }) => {
      const value = getIn(values, ...path);
      return typeof value !== 'string' || value.trim() === '';
    })
    .map(({ path }) => path.join('.'));
}

/**
 * Writes the bootstrap's release, or brings the one it wrote before to the
 * profile's version and gate. Refuses (before anything is written) when a
 * file it would write is there and was not written by the bootstrap.
 */
export async function writeManagedRelease(
  staged: StagedTree,
  paths: ManagedReleasePaths,
  cluster: ClusterProfile,
  chart: KarpenterChart,
): Promise<ManagedReleaseChange> {
  const version = karpenterChartVersion(cluster.karpenterVersion);
  const kustomizationText = await readReleaseFile(
    staged,
    paths.karpenterKustomization,
  );
  const valuesText = await readReleaseFile(staged, paths.karpenterValues);
  refuseFilesInTheWay(paths, kustomizationText, valuesText);

  const before: ManagedReleaseChange['before'] = {};
  const pinned = await writeKustomization(
    staged,
    paths,
    chart,
    version,
    kustomizationText,
  );
  if (kustomizationText !== undefined) before.version = pinned;
  const gate = await writeValues(staged, paths, cluster, chart, valuesText);
  if (valuesText !== undefined) before.nodeOverlay = gate;

  let change: ManagedReleaseChange['change'] = 'created';
  if (kustomizationText !== undefined) {
    const changed =
      (await staged.read(paths.karpenterKustomization)) !== kustomizationText ||
      (await staged.read(paths.karpenterValues)) !== valuesText;
    change = changed ? 'updated' : 'unchanged';
  }
  return {
    change,
    folder: posix.dirname(paths.karpenterKustomization),
    before,
    blankRequired: await blankRequiredValues(staged, paths, chart),
  };
}
