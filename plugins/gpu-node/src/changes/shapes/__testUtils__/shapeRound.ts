/**
 * What every repository-shape test does: a writable copy of a fixture
 * repository from `test/fixtures/`, the import and the bootstrap written
 * into it, requests in the team's words, one request taken through the tree
 * and released again (with the findings `validate` has while it is merged),
 * a request refused, and the landing every request must have (its pods on
 * the planned pool and no other).
 */
import { promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {
  builtinCatalog,
  isGpuInputError,
  parseGpuRequest,
  resolveClusterProfile,
  type ClusterProfile,
  type ClusterProfileOverride,
  type GpuCatalog,
  type GpuRequest,
} from '@gpu-gitops/plugin-gpu-common';
import { snapshot } from '../../../import/__testUtils__/fixtureCopies';
import { buildImportChange } from '../../../import/buildImportChange';
import { FsRepoTree } from '../../../repo/tree';
import { validateGitOpsTree } from '../../../validate/validateGitOpsTree';
import {
  buildBootstrapChangeSet,
  type BootstrapOptions,
} from '../../bootstrap/bootstrapChangeSet';
import { buildRequestChange } from '../../buildRequestChange';
import { buildReleaseChange } from '../../release/buildReleaseChange';
import { writeChangeSet } from '../../stagedTree';

export { snapshot };

export const SHAPE_OWNER = 'group:default/ml-platform';

/** `test/fixtures/<fixture>`, the shape's repository as its sources hold it. */
export const shapeFixture = (fixture: string) =>
  path.join(__dirname, '../../../../../../test/fixtures', fixture);

/** A copy of `test/fixtures/<fixture>` in a fresh temp folder. */
export async function checkoutShape(
  fixture: string,
  prefix: string,
): Promise<FsRepoTree> {
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), prefix));
  await fs.cp(shapeFixture(fixture), dir, { recursive: true });
  return new FsRepoTree(dir);
}

/**
 * The shape's repository as the team has it, in a fresh temp folder: the
 * fixture without the README that names its origins, and its files as copied.
 */
export async function checkoutShapeRepository(
  fixture: string,
  prefix: string,
): Promise<{ tree: FsRepoTree; original: Record<string, string> }> {
  const tree = await checkoutShape(fixture, prefix);
  await fs.rm(path.join(tree.root, 'README.md'));
  return { tree, original: await snapshot(tree) };
}

/** Removes a checkout's temp folder. */
export const removeCheckout = (tree: FsRepoTree) =>
  fs.rm(tree.root, { recursive: true, force: true });

/** The shape's repository as checked out: its tree and its files as copied. */
export type ShapeCheckout = Awaited<ReturnType<typeof checkoutShapeRepository>>;

/**
 * The shape's repository for the tests of one describe block: checked out
 * before them and handed to `use`, removed after them.
 */
export function withShapeRepository(
  fixture: string,
  prefix: string,
  use: (checkout: ShapeCheckout) => void,
): void {
  let tree: FsRepoTree | undefined;
  beforeAll(async () => {
    const checkout = await checkoutShapeRepository(fixture, prefix);
    tree = checkout.tree;
    use(checkout);
  });
  afterAll(async () => {
    if (tree) await removeCheckout(tree);
  });
}

/**
 * An EKS cluster on Karpenter 1.8.0 with NodeOverlays and the single MIG
 * strategy, its GPU pools on the EC2NodeClass `nodeClass`; `more` adds or
 * overrides settings.
 */
export function karpenterAwsShapeCluster(
  name: string,
  nodeClass: string,
  more: ClusterProfileOverride = {},
): ClusterProfile {
  return resolveClusterProfile({
    name,
    provider: 'aws-karpenter',
    karpenterVersion: '1.8.0',
    nodeClass: {
      group: 'karpenter.k8s.aws',
      kind: 'EC2NodeClass',
      name: nodeClass,
    },
    nodeOverlay: true,
    migStrategy: 'single',
    ...more,
  });
}

/** The import of `cluster` for the ml platform team, written into the tree. */
export async function importShape(tree: FsRepoTree, cluster: ClusterProfile) {
  const imported = await buildImportChange({
    tree,
    dir: tree.root,
    cluster,
    catalog: builtinCatalog,
    owner: SHAPE_OWNER,
  });
  await writeChangeSet(tree, imported.changeSet);
  return imported;
}

/**
 * The bootstrap of `cluster` (GPU Operator v26.7.0, no bin-packing unless
 * `options` say), written into the tree; `bootstrapped` is the tree after it.
 */
export async function bootstrapShape(
  tree: FsRepoTree,
  cluster: ClusterProfile,
  options: Partial<BootstrapOptions> = {},
) {
  const changeSet = await buildBootstrapChangeSet(tree, cluster, {
    operatorChartVersion: 'v26.7.0',
    binPacking: false,
    ...options,
  });
  await writeChangeSet(tree, changeSet);
  return { changeSet, bootstrapped: await snapshot(tree) };
}

/** Asserts the tree holds what `original` held, but for the files at `changedPaths`. */
export async function expectOnlyChanged(
  tree: FsRepoTree,
  original: Record<string, string>,
  changedPaths: readonly string[],
) {
  const now = await snapshot(tree);
  const before = { ...original };
  for (const changed of changedPaths) {
    delete now[changed];
    delete before[changed];
  }
  expect(now).toEqual(before);
}

/** What building `gpuRequest`'s change throws (the value it resolves to when it does not). */
export function refusalOf(
  tree: FsRepoTree,
  gpuRequest: GpuRequest,
  cluster: ClusterProfile,
  catalog: GpuCatalog = builtinCatalog,
): Promise<any> {
  return buildRequestChange({
    tree,
    dir: tree.root,
    request: gpuRequest,
    cluster,
    catalog,
  }).catch(e => e);
}

/**
 * The landing every request must have: verified, its pods on `pool` (the
 * one the plan chose, unless named) and on no other.
 */
export function expectLandsOnPlannedPool(
  change: Awaited<ReturnType<typeof buildRequestChange>>,
  pool = change.plan.pool.name,
): void {
  expect(change.verification?.unverifiable).toEqual([]);
  expect(change.verification?.landsOn).toEqual([pool]);
}

/** A refusal with one issue, at `issue.path` under `issue.rule`. */
export function expectOneIssue(
  error: any,
  issue: { path: string; rule: string },
): void {
  expect(isGpuInputError(error)).toBe(true);
  expect(error.issues).toEqual([expect.objectContaining(issue)]);
}

/** The GPU Operator's device-plugin ConfigMap as the teams' releases name it. */
export const TIME_SLICING_CONFIG_MAP = {
  name: 'time-slicing-config',
  namespace: 'gpu-operator',
};

/** A request of the ml team in namespace ml, on-demand unless `spec` says. */
export function shapeRequest(
  name: string,
  spec: Record<string, unknown>,
): GpuRequest {
  return parseGpuRequest({
    apiVersion: 'gpu.backstage.io/v1alpha1',
    kind: 'GpuRequest',
    metadata: { name, namespace: 'ml' },
    spec: { owner: SHAPE_OWNER, capacityTypes: ['on-demand'], ...spec },
  });
}

/**
 * Writes `gpuRequest`'s change, validates the tree (and runs `whileMerged`
 * on it), then writes its release.
 */
export async function requestThenRelease(
  tree: FsRepoTree,
  gpuRequest: GpuRequest,
  cluster: ClusterProfile,
  whileMerged: () => Promise<void> = async () => {},
) {
  const change = await buildRequestChange({
    tree,
    dir: tree.root,
    request: gpuRequest,
    cluster,
    catalog: builtinCatalog,
  });
  await writeChangeSet(tree, change.changeSet);
  const findings = await validateGitOpsTree(tree.root, { cluster });
  await whileMerged();
  const release = await buildReleaseChange({
    tree,
    dir: tree.root,
    request: gpuRequest.metadata,
    clusterProfile: () => cluster,
    catalog: builtinCatalog,
  });
  await writeChangeSet(tree, release.changeSet);
  return { change, findings, release };
}

/**
 * The round every request of a shape must make: its pods on the planned
 * pool only, the tree clean while merged, and every file as `before` again
 * once released.
 */
export async function expectCleanRound(
  tree: FsRepoTree,
  gpuRequest: GpuRequest,
  cluster: ClusterProfile,
  before: Record<string, string>,
) {
  const round = await requestThenRelease(tree, gpuRequest, cluster);
  expectLandsOnPlannedPool(round.change);
  expect(round.findings).toEqual([]);
  expect(await snapshot(tree)).toEqual(before);
  return round;
}
