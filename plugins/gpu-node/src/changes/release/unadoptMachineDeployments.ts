/**
 * A release that takes the last request off a MachineDeployment the import
 * adopted (`import/adoptMachineDeployment.ts`) gives the team its workers
 * back as the import found them: the bootstrap reference its record names
 * comes back (only where it still holds the adoption's copy, so a team's
 * later edit stays), the labelled copy of its KubeadmConfigTemplate goes
 * (unless another MachineDeployment refers to it), and so do the product's
 * annotations. Its nodes then roll back to the team's template, as they
 * rolled onto the copy at the import; the file is the one before the import,
 * byte for byte. A new request may adopt it again through `import`.
 */
import { isMap, type Document } from 'yaml';
import {
  gpuAnnotationKeys,
  type ClusterProfile,
  type ReleasedPool,
} from '@gpu-gitops/plugin-gpu-common';
import {
  adoptedReference,
  BOOTSTRAP_REF_PATH,
} from '../../import/adoptMachineDeployment';
import type { BuiltObject } from '../../kustomize/build';
import { MACHINE_DEPLOYMENT } from '../../repo/machineDeploymentPools';
import { getIn } from '../../repo/yamlObjects';
import type { StagedTree } from '../stagedTree';
import { YamlFile } from '../yamlFile';

const BOOTSTRAP_TEMPLATE = 'KubeadmConfigTemplate';

/** The released pools no request holds any more that the product does not manage (adopted ones). */
const leftEmpty = (pools: readonly ReleasedPool[]) =>
  pools.filter(p => !p.removed && !p.managed && p.ledger.length === 0);

/** Whether a document other than `deployment` in the file still refers to the copy. */
function stillUsed(file: YamlFile, deployment: Document, copy: string) {
  return file.docs.some(
    d =>
      d !== deployment &&
      d.get('kind') === MACHINE_DEPLOYMENT &&
      d.getIn(BOOTSTRAP_REF_PATH) === copy,
  );
}

function unadopt(file: YamlFile, deployment: Document, labelDomain: string) {
  const keys = gpuAnnotationKeys(labelDomain);
  const record = adoptedReference(
    deployment.getIn(['metadata', 'annotations', keys.replaced]),
  );
  if (!record) return;
  if (deployment.getIn(BOOTSTRAP_REF_PATH) === record.request) {
    deployment.setIn(BOOTSTRAP_REF_PATH, record.before);
  }
  const copy = file.findObject(BOOTSTRAP_TEMPLATE, record.request);
  if (copy && !stillUsed(file, deployment, record.request)) file.remove(copy);
  for (const key of Object.values(keys))
    deployment.deleteIn(['metadata', 'annotations', key]);
  const annotations = deployment.getIn(['metadata', 'annotations'], true);
  if (isMap(annotations) && annotations.items.length === 0) {
    deployment.deleteIn(['metadata', 'annotations']);
  }
  file.modified = true;
}

/** Un-adopts each adopted MachineDeployment the release leaves without requests. */
export async function unadoptMachineDeployments(
  staged: StagedTree,
  cluster: ClusterProfile,
  pools: readonly ReleasedPool[],
): Promise<void> {
  for (const pool of leftEmpty(pools)) {
    const file = YamlFile.parse(pool.path, await staged.read(pool.path));
    const deployment = file.findObject(MACHINE_DEPLOYMENT, pool.name);
    if (!deployment) continue;
    unadopt(file, deployment, cluster.labelDomain);
    const content = file.newContent();
    if (content !== undefined) await staged.write(pool.path, content);
  }
}

/**
 * The KubeadmConfigTemplate copies the release's un-adoptions remove, by
 * name, from the build before it: what `verifyRelease` lets disappear.
 */
export function unadoptedTemplates(
  before: readonly BuiltObject[],
  pools: readonly ReleasedPool[],
  labelDomain: string,
): Set<string> {
  const names = new Set(leftEmpty(pools).map(p => p.name));
  const copies = new Set<string>();
  for (const o of before) {
    if (o.kind !== MACHINE_DEPLOYMENT || !names.has(o.metadata.name)) continue;
    const record = adoptedReference(
      getIn(
        o,
        'metadata',
        'annotations',
        gpuAnnotationKeys(labelDomain).replaced,
      ),
    );
    if (record) copies.add(record.request);
  }
  return copies;
}
