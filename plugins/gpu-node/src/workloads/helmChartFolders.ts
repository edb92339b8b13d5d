/**
 * A Helm chart folder of the repository that renders a workload of this
 * kind and name: a folder holding `Chart.yaml` (which Argo CD renders with
 * Helm when an Application's `source.path` points at it, and `helm install`
 * takes as is), named as the workload (the `{{ .Chart.Name }}` and
 * `fullname` conventions of `helm create`), with a template of that kind.
 * Its templates are not YAML until Helm renders them, so the search for
 * the workload's manifest cannot read them: this says where it is.
 */
import { posix } from 'node:path';
import { parse } from 'yaml';
import type { RepoTree } from '../repo/tree';
import { getIn } from '../repo/yamlObjects';

function chartName(text: string): unknown {
  try {
    return getIn(parse(text), 'name');
  } catch {
    return undefined;
  }
}

/** The folder of the chart rendering `kind` `name`, if the repository holds one. */
export async function chartFolderRendering(
  tree: RepoTree,
  kind: string,
  name: string,
): Promise<string | undefined> {
  const files = await tree.listFiles('');
  const kindLine = new RegExp(`^kind:\\s*${kind}\\s*$`, 'm');
  for (const chart of files.filter(f => posix.basename(f) === 'Chart.yaml')) {
    const text = await tree.readFile(chart);
    if (text === undefined || chartName(text) !== name) continue;
    const folder = posix.dirname(chart);
    const templates = files.filter(f =>
      f.startsWith(folder === '.' ? 'templates/' : `${folder}/templates/`),
    );
    for (const template of templates) {
      if (kindLine.test((await tree.readFile(template)) ?? '')) return folder;
    }
  }
  return undefined;
}
