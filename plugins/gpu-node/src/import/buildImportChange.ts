/**
 * One import, one pass: read the cluster's folder and the workloads, convert
 * the legacy Karpenter objects to v1 in place, adopt the GPU pools (their
 * ledger and what they are, as annotations), write a request record for each
 * GPU workload recognised on them, and verify the change with the real
 * kustomize. Everything the import does not understand stays as it is and is
 * listed in the findings. `gpu-gitops import` and the `gpu:gitops:import`
 * action build an import through here (via `publishGpuImport`).
 */
import type { Document } from 'yaml';
import {
  gpuModelsPoolAllows,
  GpuInputError,
  isGpuInputError,
  poolProviderOf,
  WHOLE_GPU_RESOURCE,
  isOwnerRef,
  type ClusterProfile,
  type GpuCatalog,
  type LedgerEntry,
  type PoolState,
  type RepoState,
  type WorkloadState,
} from '@gpu-gitops/plugin-gpu-common';
import { storedRequestYaml } from '../changes/applyPlan';
import { StagedTree } from '../changes/stagedTree';
import type { ChangeSet } from '../changes/types';
import type { VerifyChangeResult } from '../changes/verifyChange';
import { syncNode, YamlFile } from '../changes/yamlFile';
import type { BuildRootOptions } from '../kustomize/buildRoot';
import { isKustomizationFile } from '../kustomize/roots';
import {
  compileRepoLayout,
  type CompiledRepoLayout,
} from '../layout/compileRepoLayout';
import {
  clusterScopePath,
  requestPath,
  type LayoutInput,
} from '../layout/layout';
import { parsePools, type PoolConfigs } from '../repo/parsePools';
import { parseWorkloads } from '../repo/parseWorkloads';
import { deployedWorkloadDocuments } from './deployedWorkloads';
import { readDocuments } from '../repo/readDocuments';
import { readRepoState } from '../repo/readRepoState';
import type { RepoTree } from '../repo/tree';
import {
  getIn,
  isPlainObject,
  isYamlPath,
  type ParsedDocument,
  type PlainObject,
  type SkippedFile,
} from '../repo/yamlObjects';
import { adoptionAnnotations, annotate, servedResource } from './adoptPool';
import {
  nodeClassName,
  withInputClasses,
  type KarpenterInput,
  type KarpenterOutput,
} from './convert/convertKarpenterObjects';
import {
  observedSharing,
  type ObservedSharing,
} from './sharing/observedSharing';
import { operatorDefaultSharing } from './sharing/operatorDefaultSharing';
import { standaloneDefaultSharing } from '../repo/gpuStack/devicePluginChartDefault';
import { overlayCounts } from './sharing/overlaySlices';
import { sharedNodeOverlays } from './sharing/sharedNodeOverlays';
import { objectLabel, type ImportFinding } from './convert/findings';
import { isKarpenterObject } from './convert/legacyKinds';
import { recogniseWorkloads, type ImportedRequest } from './importedRequests';
import { importLandingModel } from './importLanding';
import {
  adoptedDeployment,
  adoptInFile,
  adoptionCounts,
  adoptionNote,
  handWrittenGpuMachineDeployments,
  withNodeLabel,
  type MachineDeploymentAdoption,
} from './adoptMachineDeployment';
import {
  adoptedCluster,
  adoptEntryInFile,
  entryAdoptionNote,
  topologyGpuWorkers,
} from './adoptTopologyEntry';
import { convertWithPatches } from './convertWithPatches';
import { withTopologyDocuments } from '../repo/topologyMachineDeployments';
import { kindNameOf } from './expectedConversion';
import { karpenterOutsideFolder } from './karpenterOutsideFolder';
import { readPatchEntries, patchSitesOf } from './legacyPatchSites';
import { verifyImport, type ExpectedImport } from './verifyImport';
import {
  handWrittenComputeClasses,
  type HandWrittenClass,
} from './handWrittenComputeClasses';
import { COMPUTE_CLASS_KIND } from '../repo/computeClassPools';
import { isJsonPath, writeConvertedPatches } from './writeConvertedPatches';

/** @public */
export interface BuildImportChangeOptions {
  /** The checkout to read (on disk at `dir`, which kustomize builds). */
  tree: RepoTree;
  dir: string;
  cluster: ClusterProfile;
  catalog: GpuCatalog;
  /** Owner of the request records the import writes (`group:default/ml-platform`). */
  owner: string;
  layout?: LayoutInput;
  kustomize?: BuildRootOptions;
  /** Build touched roots before and after with the real kustomize (default true). */
  verify?: boolean;
  stage?: <T>(name: string, step: () => Promise<T>) => Promise<T>;
}

/**
 * An object the import converted to v1 (or a v1 node class that took its
 * pools' kubelet settings).
 *
 * @public
 */
export interface ImportedObject {
  path: string;
  from: string;
  to: string;
}

/** @public */
export interface AdoptedPool {
  name: string;
  path: string;
  gpuModel?: string;
  sharingMode: string;
  /** Slices (time-slicing replicas, MPS clients) per GPU of a shared pool. */
  slicesPerGpu?: number;
  /** Where its sharing was read (a device-plugin config, a node class, NodeOverlays). */
  sharingSource?: string;
  resourceName: string;
  /** The ledger written on it (`ml/chat=3`). */
  ledger: string;
  /** Each GPU count it carries (limits, NodeOverlay capacity), with its unit: slices or GPUs. */
  counts: string[];
}

/** @public */
export interface ImportedRequestRecord {
  /** `<namespace>/<name>`. */
  id: string;
  /** The record's path (`requests/<ns>/<name>.yaml`). */
  path: string;
  pool: string;
  workloadPath: string;
}

/** @public */
export interface ImportChange {
  cluster: ClusterProfile;
  /** The cluster's folder the import read (`clusters/<cluster>`): findings elsewhere are about workloads. */
  clusterFolder: string;
  changeSet: ChangeSet;
  converted: ImportedObject[];
  adoptedPools: AdoptedPool[];
  requests: ImportedRequestRecord[];
  /** Everything the report says: no-v1-equivalent fields, notes, what stays untouched. */
  findings: ImportFinding[];
  verification?: VerifyChangeResult;
}

interface LoadedFile {
  /** The text as read (the kustomizations' patch entries are read from it). */
  text: string;
  file: YamlFile;
  documents: ParsedDocument[];
}

/** A file that does not parse, reported and left as it is. */
const notUnderstood = (s: SkippedFile): ImportFinding => ({
  kind: 'not-understood',
  path: s.path,
  object: s.path,
  message: `${s.reason}; left as it is`,
});

async function loadClusterFiles(
  tree: RepoTree,
  scope: string,
  findings: ImportFinding[],
): Promise<Map<string, LoadedFile>> {
  const files = new Map<string, LoadedFile>();
  for (const path of (await tree.listFiles(scope)).filter(isYamlPath)) {
    const text = await tree.readFile(path);
    try {
      const file = YamlFile.parse(path, text);
      const documents = file
        .values()
        .map((value, index) => ({ path, index, value }))
        .filter(d => d.value !== null);
      files.set(path, { text: text ?? '', file, documents });
    } catch (error) {
      if (!isGpuInputError(error)) throw error;
      findings.push({
        kind: 'not-understood',
        path,
        object: path,
        message: `not readable YAML (${error.message}); left as it is`,
      });
    }
  }
  return files;
}

/** @public */
export async function buildImportChange(
  options: BuildImportChangeOptions,
): Promise<ImportChange> {
  const { tree, cluster, layout } = options;
  const stage =
    options.stage ?? (<T>(_name: string, step: () => Promise<T>) => step());
  assertOwnerRef(options.owner);
  const findings: ImportFinding[] = [];
  const scope = clusterScopePath(layout, cluster.name);

  const files = await stage('Read the cluster folder', () =>
    loadClusterFiles(tree, scope, findings),
  );
  assertFolderHoldsYaml(files, scope, cluster.name);

  // 1. Convert every Karpenter object of the cluster's folder, with the
  // kustomize patches of them (patch files are patches, not objects).
  const conversion = await convertFolderObjects(
    tree,
    scope,
    files,
    cluster,
    findings,
  );
  const { outputs, changedBefore, changedAfter } = conversion;

  // 2. Which v1 NodePools are GPU pools, and how they share their GPUs.
  const skipped: SkippedFile[] = [];
  const found = await readImportPools(
    { ...options, stage },
    { outputs, patchSites: conversion.patchSites, files },
    findings,
    skipped,
  );

  // 3. The GPU workloads on them become request records.
  const recognised = await recogniseImportedWorkloads(options, found, files, {
    skipped,
    findings,
  });
  const staged = new StagedTree(tree);
  const requests = await writeRequestRecords(
    staged,
    layout,
    recognised.requests,
  );

  // 4. Adopt the GPU pools.
  const adopted = adoptImportPools(found, recognised.requests, files, {
    cluster,
    catalog: options.catalog,
    changedBefore,
    changedAfter,
    findings,
  });

  await stageEditedFiles(conversion.patches, files, staged);
  const changeSet = staged.toChangeSet();
  const expected: ExpectedImport = {
    changedBefore,
    changedAfter,
    keptLegacy: keptLegacyObjects(outputs),
    addedAnnotations: adopted.addedAnnotations,
    derived: adopted.derived,
    nodeClasses: conversion.nodeClasses,
  };
  const verification = await verifyStep(options, stage, changeSet, expected);
  return {
    cluster,
    clusterFolder: scope,
    changeSet,
    converted: conversion.converted,
    adoptedPools: adopted.pools,
    requests,
    findings,
    verification,
  };
}

/**
 * Every record the import writes carries this owner: refuse a bad one
 * before anything is read, even when no workload would need it.
 */
function assertOwnerRef(owner: string): void {
  if (!isOwnerRef(owner)) {
    throw new GpuInputError([
      {
        path: 'owner',
        rule: 'entity-ref',
        message: `the owner of the imported requests must be a Backstage entity ref of a group or user, e.g. "group:default/ml-platform"; got "${owner}"`,
      },
    ]);
  }
}

/** A cluster folder without YAML is most likely a wrong cluster name. */
function assertFolderHoldsYaml(
  files: Map<string, LoadedFile>,
  scope: string,
  clusterName: string,
): void {
  if (files.size === 0) {
    throw new GpuInputError([
      {
        path: 'cluster',
        rule: 'cluster-folder-empty',
        message: `the cluster folder ${scope}/ of cluster "${clusterName}" holds no YAML file: nothing to import (is the cluster name right?)`,
      },
    ]);
  }
}

/** The file and YAML document an input's key (`<path>#<index>`) names. */
function documentOf(
  files: Map<string, LoadedFile>,
  key: string,
): { path: string; doc: Document } {
  const [path, index] = [
    key.slice(0, key.lastIndexOf('#')),
    Number(key.slice(key.lastIndexOf('#') + 1)),
  ];
  return { path, doc: files.get(path)!.file.docs[index] };
}

/** Every Karpenter object of the folder's files, but for patch files. */
function karpenterInputs(
  files: Map<string, LoadedFile>,
  patchFiles: Set<string>,
): KarpenterInput[] {
  const inputs: KarpenterInput[] = [];
  for (const [path, { documents }] of files) {
    if (patchFiles.has(path)) continue;
    for (const doc of documents) {
      if (isPlainObject(doc.value) && isKarpenterObject(doc.value)) {
        inputs.push({ key: `${path}#${doc.index}`, value: doc.value });
      }
    }
  }
  return inputs;
}

/** The converted patches and every file the import edited, staged. */
async function stageEditedFiles(
  patches: Parameters<typeof writeConvertedPatches>[0],
  files: Map<string, LoadedFile>,
  staged: StagedTree,
): Promise<void> {
  await writeConvertedPatches(patches, files, staged);
  for (const [path, { file }] of files) {
    const content = file.newContent();
    if (content !== undefined) await staged.write(path, content);
  }
}

/** A named step of the import (`stages` time each); by default the step alone. */
type ImportStage = NonNullable<BuildImportChangeOptions['stage']>;

/** The kustomize check of the change (`verifyImport`), unless the caller turned it off. */
async function verifyStep(
  options: BuildImportChangeOptions,
  stage: ImportStage,
  changeSet: ChangeSet,
  expected: ExpectedImport,
): Promise<ImportChange['verification']> {
  if (options.verify === false) return undefined;
  return stage('Verify with kustomize', () =>
    verifyImport(
      options.dir,
      changeSet,
      expected,
      options.kustomize,
      options.tree,
    ),
  );
}

/** The legacy objects left unconverted: the build after keeps them as they were. */
const keptLegacyObjects = (outputs: KarpenterOutput[]) =>
  new Set(
    outputs
      .filter(o => o.status === 'not-converted')
      .map(o => kindNameOf(o.value)),
  );

/**
 * The converted pools' documents: those the import may adopt, and those
 * left to the team, on whose nodes GPU pods land all the same. A pool an
 * overlay patches is not adopted: kustomize applies the patch over what
 * the product writes (its limits, its ledger), so the pool would not hold
 * what the product plans.
 */
function convertedPoolDocuments(
  outputs: KarpenterOutput[],
  patchSites: { label: string; targets: string[] }[],
  files: Map<string, LoadedFile>,
  findings: ImportFinding[],
): { poolDocuments: ParsedDocument[]; leftPoolDocuments: ParsedDocument[] } {
  const patchedBy = new Map(
    patchSites.flatMap(site => site.targets.map(key => [key, site.label])),
  );
  findings.push(...patchedPoolNotes(outputs, patchedBy, files));
  const asDocument = (o: KarpenterOutput): ParsedDocument => ({
    path: documentOf(files, o.key).path,
    index: 0,
    value: o.value,
  });
  const pools = outputs.filter(o => o.role === 'pool');
  const mayAdopt = (o: KarpenterOutput) =>
    o.status !== 'not-converted' && !patchedBy.has(o.key);
  return {
    poolDocuments: pools.filter(mayAdopt).map(asDocument),
    leftPoolDocuments: pools.filter(o => !mayAdopt(o)).map(asDocument),
  };
}

/** The GPU pools an import finds, and how their nodes share their GPUs. */
interface ImportPools {
  /** The repository's configs, hand-written ConfigMaps' keys included (read by readRepoState). */
  configs: PoolConfigs;
  poolDocuments: ParsedDocument[];
  leftPoolDocuments: ParsedDocument[];
  pools: PoolState[];
  /** The team's own GPU MachineDeployments, adopted as pools too. */
  adoptions: MachineDeploymentAdoption[];
  /** A GKE team's own GPU ComputeClasses, shared as their GPU rules say. */
  classes: HandWrittenClass[];
  observed: Map<string, ObservedSharing>;
  /** Each pool the import adopts, with the resource its nodes serve. */
  adoptable: PoolState[];
}

/** 2. Which v1 NodePools (MachineDeployments, ComputeClasses) are GPU pools, and how they share their GPUs. */
async function readImportPools(
  options: BuildImportChangeOptions & { stage: ImportStage },
  read: {
    outputs: KarpenterOutput[];
    patchSites: { label: string; targets: string[] }[];
    files: Map<string, LoadedFile>;
  },
  findings: ImportFinding[],
  skipped: SkippedFile[],
): Promise<ImportPools> {
  const { tree, layout, cluster, catalog } = options;
  const { outputs, files } = read;
  const state = await options.stage('Read repository state', () =>
    readRepoState(tree, layout, cluster.name, { catalog }),
  );
  const documents = convertedPoolDocuments(
    outputs,
    read.patchSites,
    files,
    findings,
  );
  const { poolDocuments } = documents;
  const configs = {
    devicePluginConfigs: state.devicePluginConfigs,
    migConfigs: state.migConfigs,
  };
  const { pools } = parsePools(poolDocuments, configs, catalog, skipped);
  const adoptions = gpuMachineAdoptions(
    files,
    configs,
    catalog,
    cluster.labelDomain,
    findings,
  );
  // How each pool's nodes really share their GPUs, wherever it is set.
  const observed = await observePools(
    [
      ...pools.filter(p => !p.managed && p.ledger === undefined),
      ...adoptions.map(a => a.pool),
    ],
    { tree, layout, cluster, state, catalog },
    {
      poolDocuments: [
        ...poolDocuments,
        ...adoptions.map(a => ({
          path: a.path,
          index: 0,
          value: a.asNodePool,
        })),
      ],
      outputs,
      files,
    },
    findings,
  );
  const classes = handWrittenComputeClasses(
    [...files.values()].flatMap(f => f.documents),
    findings,
  );
  for (const c of classes) observed.set(c.observed.pool.name, c.observed);
  const adoptable = [...observed.values()].map(({ pool }) =>
    withServedResource(pool, configs, cluster),
  );
  return {
    ...documents,
    configs,
    pools,
    adoptions,
    classes,
    observed,
    adoptable,
  };
}

/**
 * The team's own GPU machines the import adopts: standalone
 * MachineDeployments and ClusterClass topology entries (each says why when
 * it cannot be adopted).
 */
function gpuMachineAdoptions(
  files: Map<string, LoadedFile>,
  configs: PoolConfigs,
  catalog: GpuCatalog,
  labelDomain: string,
  findings: ImportFinding[],
) {
  const machineDeployments = handWrittenGpuMachineDeployments(
    files.values(),
    configs,
    catalog,
    labelDomain,
  );
  const topologyWorkers = topologyGpuWorkers(
    [...files.values()].flatMap(f => f.documents),
    configs,
    catalog,
    labelDomain,
  );
  findings.push(...machineDeployments.findings, ...topologyWorkers.findings);
  return [...machineDeployments.adoptions, ...topologyWorkers.adoptions];
}

/** An adopted pool with the resource its nodes' device plugin serves. */
function withServedResource(
  pool: PoolState,
  configs: PoolConfigs,
  cluster: ClusterProfile,
): PoolState {
  const config = pool.deviceConfigName
    ? configs.devicePluginConfigs[pool.deviceConfigName]
    : undefined;
  return {
    ...pool,
    resourceName: servedResource(pool, config, cluster.migStrategy),
  };
}

/** 3. The GPU workloads on the pools, recognised as requests. */
async function recogniseImportedWorkloads(
  options: BuildImportChangeOptions,
  found: ImportPools,
  files: Map<string, LoadedFile>,
  reported: { skipped: SkippedFile[]; findings: ImportFinding[] },
) {
  const { skipped, findings } = reported;
  const { tree, layout, cluster } = options;
  const { adoptable, pools, adoptions } = found;
  const compiled = compileRepoLayout(layout, [cluster.name]);
  const workloadDocuments = await deployedWorkloadDocuments(
    tree,
    options.dir,
    await readDocuments(tree, compiled.workloadsPrefix, skipped),
    options.kustomize,
  );
  const workloads = await unrecordedWorkloads(
    tree,
    layout,
    { documents: workloadDocuments, compiled },
    { adoptable, pools },
  );
  const recognised = recogniseWorkloads(
    workloadDocuments,
    workloads,
    adoptable,
    {
      cluster,
      owner: options.owner,
      catalog: options.catalog,
      landing: importLandingModel({
        // The adopted MachineDeployments' files too: their pools are read
        // from those documents, and the team's GPU ComputeClasses.
        poolDocuments: [
          ...found.poolDocuments,
          ...adoptedFileDocuments(adoptions, files),
          ...found.classes.map(c => c.document),
        ],
        pools: [
          ...adoptable,
          ...pools.filter(p => !adoptable.some(a => a.name === p.name)),
        ],
        leftDocuments: found.leftPoolDocuments,
        objects: [...files.values()].flatMap(f =>
          f.documents.map(d => d.value),
        ),
        configs: found.configs,
        catalog: options.catalog,
        migStrategy: cluster.migStrategy,
      }),
    },
  );
  findings.push(...recognised.findings, ...skipped.map(notUnderstood));
  return recognised;
}

/**
 * 4. Each adoptable pool takes its ledger and the product's annotations in
 * its own file, as the object it is (a NodePool, or the team's ComputeClass
 * or MachineDeployment); what the verification expects of each is noted.
 */
function adoptImportPools(
  found: ImportPools,
  requests: ImportedRequest[],
  files: Map<string, LoadedFile>,
  noted: {
    cluster: ClusterProfile;
    catalog: GpuCatalog;
    changedBefore: Set<string>;
    changedAfter: Set<string>;
    findings: ImportFinding[];
  },
) {
  const { cluster, catalog, changedBefore, changedAfter, findings } = noted;
  const { labelDomain } = cluster;
  const classNames = new Set(found.classes.map(c => c.observed.pool.name));
  const pools: AdoptedPool[] = [];
  const addedAnnotations = new Map<string, Record<string, string>>();
  const derived: ExpectedImport['derived'] = new Map();
  for (const pool of found.adoptable) {
    const ledger: LedgerEntry[] = requests
      .filter(r => r.pool === pool.name)
      .map(r => r.ledgerEntry);
    const annotations = adoptionAnnotations(pool, ledger, labelDomain);
    const file = files.get(pool.path)!.file;
    const observed = found.observed.get(pool.name)!;
    const adoption = found.adoptions.find(a => a.name === pool.name);
    if (adoption) {
      // A topology entry is adopted on its Cluster; a MachineDeployment in its own file.
      const adopt = adoption.topologyCluster
        ? adoptTopologyEntryPool
        : adoptMachineDeploymentPool;
      pools.push(
        adopt(pool, adoption, { file, annotations, observed }, labelDomain, {
          changedBefore,
          changedAfter,
          derived,
          findings,
        }),
      );
      continue;
    }
    const kind = classNames.has(pool.name) ? COMPUTE_CLASS_KIND : 'NodePool';
    const kindName = `${kind}/${pool.name}`;
    if (annotate(file.findObject(kind, pool.name)!, annotations)) {
      file.modified = true;
    }
    addedAnnotations.set(kindName, annotations);
    changedBefore.add(kindName);
    changedAfter.add(kindName);
    pools.push(describeAdopted(pool, annotations, labelDomain, observed));
    findings.push(...adoptedPoolNotes(pool, cluster, catalog));
  }
  return { pools, addedAnnotations, derived };
}

/**
 * Step 1: convert the folder's Karpenter objects (and the kustomize patches
 * of them) to v1 in their files, noting what changed for the verification.
 */
async function convertFolderObjects(
  tree: RepoTree,
  scope: string,
  files: Map<string, LoadedFile>,
  cluster: ClusterProfile,
  findings: ImportFinding[],
) {
  const kustomizations = new Map<string, string>();
  for (const [path, { text }] of files) {
    if (isKustomizationFile(path)) kustomizations.set(path, text);
  }
  findings.push(...(await karpenterOutsideFolder(tree, scope, kustomizations)));
  const patchEntries = await readPatchEntries(kustomizations, path =>
    tree.readFile(path),
  );
  const patchFiles = new Set(patchEntries.flatMap(e => e.file ?? []));
  const inputs = karpenterInputs(files, patchFiles);
  const patchSites = patchSitesOf(patchEntries, inputs);
  // A pool keeps its own provider's node class: the folder's classes
  // first, then the profile's provider (`convert/nodeClassRef.ts`).
  const nodeClasses = withInputClasses(inputs, {
    provider: poolProviderOf(cluster).karpenter?.nodeClass,
  });
  const { outputs, patches } = convertWithPatches(
    inputs,
    patchSites,
    path =>
      path.startsWith(`${scope}/`) && (files.has(path) || isJsonPath(path)),
    nodeClasses,
  );
  const converted: ImportedObject[] = [];
  const changedBefore = new Set<string>();
  const changedAfter = new Set<string>();
  for (const out of outputs) {
    const { path, doc } = documentOf(files, out.key);
    for (const f of out.findings) findings.push({ ...f, path });
    if (out.status !== 'converted' && out.status !== 'updated') continue;
    const input = inputs.find(i => i.key === out.key)!.value;
    if (syncNode(doc, [], JSON.parse(JSON.stringify(out.value)))) {
      files.get(path)!.file.modified = true;
    }
    changedBefore.add(kindNameOf(input));
    changedAfter.add(kindNameOf(out.value));
    converted.push({
      path,
      from: `${String(input.apiVersion)} ${objectLabel(input)}`,
      to: `${String(out.value.apiVersion)} ${objectLabel(out.value)}`,
    });
  }
  return {
    outputs,
    patches,
    patchSites,
    nodeClasses,
    converted,
    changedBefore,
    changedAfter,
  };
}

/** A note for each converted pool an overlay patches (so not adopted). */
function patchedPoolNotes(
  outputs: KarpenterOutput[],
  patchedBy: Map<string, string>,
  files: Map<string, LoadedFile>,
): ImportFinding[] {
  const notes: ImportFinding[] = [];
  for (const o of outputs) {
    const patch = patchedBy.get(o.key);
    if (o.role !== 'pool' || o.status === 'not-converted' || !patch) continue;
    notes.push({
      kind: 'note',
      path: documentOf(files, o.key).path,
      object: objectLabel(o.value),
      message: `not adopted as a GPU pool: ${patch} patches it, and kustomize applies that patch over the limits and ledger the product would write; fold the patch into the pool (or drop it) and import again to let new requests use it`,
    });
  }
  return notes;
}

/**
 * The workloads to record: not those with a request record already, nor
 * those on a pool of the folder the import does not adopt.
 */
async function unrecordedWorkloads(
  tree: RepoTree,
  layout: LayoutInput | undefined,
  workloadsIn: { documents: ParsedDocument[]; compiled: CompiledRepoLayout },
  poolsOf: { adoptable: PoolState[]; pools: PoolState[] },
): Promise<WorkloadState[]> {
  const { documents, compiled } = workloadsIn;
  const { adoptable, pools } = poolsOf;
  const recorded = new Set<string>();
  for (const w of parseWorkloads(documents, compiled)) {
    if (await tree.readFile(requestPath(layout, w.namespace, w.name))) {
      recorded.add(w.id);
    }
  }
  return parseWorkloads(documents, compiled).filter(
    w =>
      !recorded.has(w.id) &&
      !(
        w.pool &&
        !adoptable.some(p => p.name === w.pool) &&
        pools.some(p => p.name === w.pool)
      ),
  );
}

/** Stage a request record for each recognised workload. */
async function writeRequestRecords(
  staged: StagedTree,
  layout: LayoutInput | undefined,
  recognised: ImportedRequest[],
): Promise<ImportedRequestRecord[]> {
  const requests: ImportedRequestRecord[] = [];
  for (const r of recognised) {
    const { namespace, name } = r.request.metadata;
    const path = requestPath(layout, namespace, name);
    await staged.write(path, storedRequestYaml(r.request));
    requests.push({
      id: `${namespace}/${name}`,
      path,
      pool: r.pool,
      workloadPath: r.path,
    });
  }
  return requests;
}

/** What an adoption reads: the pool's file, the annotations it gets, how its nodes share their GPUs. */
interface AdoptionRead {
  file: YamlFile;
  annotations: Record<string, string>;
  observed: ObservedSharing;
}

/** What an adoption notes for the verification and the reviewer: what kustomize builds differently, and why. */
interface AdoptionNotes {
  changedBefore: Set<string>;
  changedAfter: Set<string>;
  derived: NonNullable<ExpectedImport['derived']>;
  findings: ImportFinding[];
}

/**
 * Adopt a team's GPU MachineDeployment in its file (its template gets a
 * labelled copy), noting what kustomize must build after.
 */
function adoptMachineDeploymentPool(
  pool: PoolState,
  adoption: MachineDeploymentAdoption,
  read: AdoptionRead,
  labelDomain: string,
  noted: AdoptionNotes,
): AdoptedPool {
  const { file, annotations, observed } = read;
  const template = adoptInFile(file, adoption, annotations, labelDomain);
  const templateName = String((template.metadata as PlainObject).name);
  const adopted = expectedMachineDeployment(
    adoption,
    annotations,
    templateName,
    labelDomain,
  );
  // The MachineDeployment changes; its template's copy appears.
  noted.changedBefore.add(`MachineDeployment/${pool.name}`);
  for (const [kindName, edit] of adopted) {
    noted.changedAfter.add(kindName);
    noted.derived.set(kindName, edit);
  }
  noted.findings.push(adoptionNote(adoption, templateName, labelDomain));
  return {
    ...describeAdopted(pool, annotations, labelDomain, observed),
    counts: [...adoptionCounts(adoption), ...observed.counts],
  };
}

/**
 * Adopt a GPU entry of a managed topology in its Cluster's file (the
 * Cluster's entry gets the annotations), noting what kustomize must build
 * after.
 */
function adoptTopologyEntryPool(
  pool: PoolState,
  adoption: MachineDeploymentAdoption,
  read: AdoptionRead,
  labelDomain: string,
  noted: AdoptionNotes,
): AdoptedPool {
  const { file, annotations, observed } = read;
  adoptEntryInFile(file, adoption, annotations);
  const kindName = `Cluster/${adoption.topologyCluster}`;
  noted.changedBefore.add(kindName);
  noted.changedAfter.add(kindName);
  noted.derived.set(kindName, {
    from: kindName,
    edit: built => adoptedCluster(built, adoption.name, annotations),
  });
  noted.findings.push(entryAdoptionNote(adoption, labelDomain));
  return {
    ...describeAdopted(pool, annotations, labelDomain, observed),
    counts: [...adoptionCounts(adoption), ...observed.counts],
  };
}

/** What to tell of a Karpenter pool adopted as it is: it cannot scale yet, or it has no one model. */
function adoptedPoolNotes(
  pool: PoolState,
  cluster: ClusterProfile,
  catalog: GpuCatalog,
): ImportFinding[] {
  const models = gpuModelsPoolAllows(pool, catalog, cluster);
  return [
    ...(needsOverlaysToScale(pool, cluster) ? [withoutOverlaysNote(pool)] : []),
    ...(models.length > 1 ? [severalModelsNote(pool, models)] : []),
  ];
}

/**
 * Why an adopted pool of several GPU models has none in its annotations:
 * requests never reuse it (a request names one model), and its workloads
 * are not recorded (`importedRequests.ts`).
 */
function severalModelsNote(pool: PoolState, models: string[]): ImportFinding {
  return {
    kind: 'note',
    path: pool.path,
    object: `NodePool "${pool.name}"`,
    message: `adopted with no GPU model: its requirements let Karpenter launch GPUs of ${models.length} models (${models.join(', ')}), and a request names one. New requests get a pool of their own model, and its workloads are not recorded as requests; split it into one NodePool per model to let requests use it`,
  };
}

/** Why an adopted pool serving a resource Karpenter does not know cannot scale yet. */
function withoutOverlaysNote(pool: PoolState): ImportFinding {
  return {
    kind: 'note',
    path: pool.path,
    object: `NodePool "${pool.name}"`,
    message: `adopted as it is, without NodeOverlays: Karpenter does not know how much ${pool.resourceName} its nodes offer, so it launches no node for pods that ask for it (only nodes already there serve them; Karpenter issue #729). The first GPU request on this pool adds the NodeOverlays`,
  };
}

/**
 * A pool whose nodes serve a resource Karpenter does not know (a renamed
 * shared resource, a MIG profile) scales only through NodeOverlays, which
 * the import does not write (an adoption keeps the cluster as it runs).
 */
function needsOverlaysToScale(pool: PoolState, cluster: ClusterProfile) {
  return (
    poolProviderOf(cluster).karpenter !== undefined &&
    cluster.nodeOverlay &&
    pool.resourceName !== WHOLE_GPU_RESOURCE
  );
}

function describeAdopted(
  pool: PoolState,
  annotations: Record<string, string>,
  labelDomain: string,
  observed: ObservedSharing,
): AdoptedPool {
  return {
    name: pool.name,
    path: pool.path,
    ...(pool.gpuModel ? { gpuModel: pool.gpuModel } : {}),
    sharingMode: pool.sharingMode,
    ...(pool.slicesPerGpu !== undefined
      ? { slicesPerGpu: pool.slicesPerGpu }
      : {}),
    ...(observed.sharingSource
      ? { sharingSource: observed.sharingSource }
      : {}),
    resourceName: pool.resourceName,
    ledger: annotations[`${labelDomain}/requests`],
    counts: observed.counts,
  };
}

/** Each pool as its nodes really share their GPUs (`sharing/`), by name. */
async function observePools(
  pools: PoolState[],
  context: {
    tree: RepoTree;
    layout: LayoutInput | undefined;
    cluster: ClusterProfile;
    state: RepoState;
    catalog: GpuCatalog;
  },
  read: {
    poolDocuments: ParsedDocument[];
    outputs: KarpenterOutput[];
    files: Map<string, LoadedFile>;
  },
  findings: ImportFinding[],
): Promise<Map<string, ObservedSharing>> {
  const { tree, layout, cluster, state, catalog } = context;
  const operatorDefault = await operatorDefaultSharing(
    tree,
    layout,
    cluster,
    state,
  );
  findings.push(...operatorDefault.findings);
  const nodesDefault =
    operatorDefault.sharing ??
    (await standaloneDefaultSharing(tree, layout, cluster));
  // Overlays of a folder of no cluster reach its nodes too.
  const objects = [
    ...folderObjects(read.files),
    ...(await sharedNodeOverlays(tree, layout)),
  ];
  const observed = new Map<string, ObservedSharing>();
  for (const pool of pools) {
    const nodePool = read.poolDocuments.find(d =>
      [`NodePool/${pool.name}`, `MachineDeployment/${pool.name}`].includes(
        kindNameOf(d.value as PlainObject),
      ),
    )!.value as PlainObject;
    const found = observedSharing(pool, nodePool, {
      nodeClass: nodeClassOf(read.outputs, pool),
      operatorDefault: nodesDefault,
      overlays: overlayCounts(pool, nodePool, objects, catalog),
    });
    observed.set(pool.name, found);
    for (const f of found.findings) findings.push({ path: pool.path, ...f });
  }
  return observed;
}

/** The v1 node class a pool refers to, when the cluster's folder holds it. */
function nodeClassOf(
  outputs: KarpenterOutput[],
  pool: PoolState,
): PlainObject | undefined {
  const value = outputs.find(
    o => o.role === 'pool' && nodeClassName(o.value) === pool.name,
  )?.value;
  const ref = getIn(value, 'spec', 'template', 'spec', 'nodeClassRef', 'name');
  return outputs.find(
    o =>
      o.role === 'nodeClass' &&
      o.status !== 'not-converted' &&
      nodeClassName(o.value) === ref,
  )?.value;
}

/** Every object of the cluster's folder (for its hand-written NodeOverlays). */
function folderObjects(files: Map<string, LoadedFile>): PlainObject[] {
  return [...files.values()].flatMap(f =>
    f.documents.map(d => d.value).filter(isPlainObject),
  );
}

/**
 * Every document of the files holding adopted MachineDeployments: each one's
 * templates are among them (its nodes' labels and machine, as they run).
 */
function adoptedFileDocuments(
  adoptions: MachineDeploymentAdoption[],
  files: Map<string, LoadedFile>,
): ParsedDocument[] {
  const paths = new Set(adoptions.map(a => a.path));
  const documents = [...paths].flatMap(path => files.get(path)!.documents);
  if (!adoptions.some(a => a.topologyCluster)) return documents;
  // A topology entry's pool object is the MachineDeployment it becomes, on
  // its worker class's templates (in any file of the folder).
  return withTopologyDocuments([...files.values()].flatMap(f => f.documents));
}

/**
 * What kustomize must build of an adopted MachineDeployment and of its
 * bootstrap template's labelled copy, each derived from what it built
 * before (`<kind>/<name>` after →).
 */
function expectedMachineDeployment(
  adoption: MachineDeploymentAdoption,
  annotations: Record<string, string>,
  template: string,
  labelDomain: string,
): Map<string, { from: string; edit: (built: PlainObject) => PlainObject }> {
  const deployment = `MachineDeployment/${adoption.name}`;
  const bootstrap = String(getIn(adoption.bootstrap, 'metadata', 'name'));
  return new Map([
    [
      deployment,
      {
        from: deployment,
        edit: built =>
          adoptedDeployment(built, annotations, template, labelDomain),
      },
    ],
    [
      `KubeadmConfigTemplate/${template}`,
      {
        from: `KubeadmConfigTemplate/${bootstrap}`,
        edit: built =>
          withNodeLabel(built, template, [
            `${labelDomain}/pool`,
            adoption.name,
          ]),
      },
    ],
  ]);
}
