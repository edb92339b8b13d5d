/**
 * Where the GitOps tool that applies the cluster keeps its own objects, read
 * from the repository's own: the namespace of its Argo CD Applications
 * (Argo CD reads Applications from its own namespace, or from those
 * `application.namespaces` lists), or of its Flux objects (a HelmRelease's
 * `sourceRef` without a namespace names a source of its own namespace). An
 * object the bootstrap adds (the DRA driver's release) goes beside them; a
 * repository that says nothing gets the tool's install default, and the
 * notes say so.
 */
import {
  asKubernetesObject,
  parseYamlDocuments,
  type PlainObject,
} from '../../../repo/yamlObjects';
import { isArgoApplication } from './argoApplicationReleases';
import type { RepositoryFile } from './valuesConfigMaps';

export type GitOpsTool = 'flux' | 'argo';

/** The namespace each tool's install uses (`flux bootstrap`; Argo CD's install manifests). */
export const DEFAULT_GITOPS_NAMESPACE: Record<GitOpsTool, string> = {
  flux: 'flux-system',
  argo: 'argocd',
};

/** The namespace the bootstrap uses, and the object it was read from (none: the default). */
export interface GitOpsToolNamespace {
  namespace: string;
  /** e.g. "Argo CD Application `platform` in `clusters/prod/apps.yaml`". */
  readFrom?: string;
}

const FLUX_KINDS = ['HelmRepository', 'OCIRepository', 'GitRepository'];

function isFluxObject(object: PlainObject): boolean {
  return /\.toolkit\.fluxcd\.io\//.test(String(object.apiVersion));
}

/** Flux's sources first (a HelmRelease refers to them), then its other objects. */
function rank(
  tool: GitOpsTool,
  object: NonNullable<ReturnType<typeof asKubernetesObject>>,
): number | undefined {
  if (tool === 'argo') return isArgoApplication(object) ? 0 : undefined;
  if (!isFluxObject(object)) return undefined;
  return FLUX_KINDS.includes(String(object.kind)) ? 0 : 1;
}

export function gitOpsToolNamespace(
  files: RepositoryFile[],
  tool: GitOpsTool,
): GitOpsToolNamespace {
  let best: (GitOpsToolNamespace & { rank: number }) | undefined;
  for (const { path, text } of files) {
    if (!/fluxcd\.io|argoproj\.io/.test(text)) continue;
    for (const document of parseYamlDocuments(path, text).documents) {
      const object = asKubernetesObject(document.value);
      const order = object ? rank(tool, object) : undefined;
      const namespace = object?.metadata.namespace;
      if (order === undefined || typeof namespace !== 'string') continue;
      if (best && best.rank <= order) continue;
      best = {
        rank: order,
        namespace,
        readFrom: `${tool === 'argo' ? 'Argo CD' : 'Flux'} ${object!.kind} \`${String(object!.metadata.name)}\` in \`${path}\``,
      };
    }
  }
  if (!best) return { namespace: DEFAULT_GITOPS_NAMESPACE[tool] };
  return { namespace: best.namespace, readFrom: best.readFrom };
}
