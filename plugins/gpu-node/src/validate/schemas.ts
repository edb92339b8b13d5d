/**
 * The real schemas (CRDs / OpenAPI) of every kind we write, from
 * kubernetes-models and @kubernetes-models/karpenter.
 *
 * Why the loader detour: both packages are ESM-only (their `exports` have only
 * an `import` condition), so neither `require('pkg/sub')` nor Jest's resolver
 * finds them. Node ≥ 20.19 can `require()` synchronous ESM by absolute path,
 * so the model files are located on disk and loaded through Node's own loader.
 */
import * as fs from 'fs';
import * as path from 'path';

interface ModelClass {
  new (data: unknown): { validate(): void };
}

const MODEL_FILES: Record<
  string,
  [pkg: string, file: string, exportName: string]
> = {
  'karpenter.sh/v1 NodePool': [
    '@kubernetes-models/karpenter',
    'karpenter.sh/v1/NodePool.js',
    'NodePool',
  ],
  'karpenter.sh/v1alpha1 NodeOverlay': [
    '@kubernetes-models/karpenter',
    'karpenter.sh/v1alpha1/NodeOverlay.js',
    'NodeOverlay',
  ],
  'karpenter.k8s.aws/v1 EC2NodeClass': [
    '@kubernetes-models/karpenter',
    'karpenter.k8s.aws/v1/EC2NodeClass.js',
    'EC2NodeClass',
  ],
  'apps/v1 Deployment': [
    'kubernetes-models',
    'apps/v1/Deployment.js',
    'Deployment',
  ],
  'apps/v1 StatefulSet': [
    'kubernetes-models',
    'apps/v1/StatefulSet.js',
    'StatefulSet',
  ],
  'v1 ConfigMap': ['kubernetes-models', 'v1/ConfigMap.js', 'ConfigMap'],
  // The bin-packing scheduler's (bootstrap `scheduler/`).
  'v1 ServiceAccount': [
    'kubernetes-models',
    'v1/ServiceAccount.js',
    'ServiceAccount',
  ],
  'rbac.authorization.k8s.io/v1 ClusterRoleBinding': [
    'kubernetes-models',
    'rbac.authorization.k8s.io/v1/ClusterRoleBinding.js',
    'ClusterRoleBinding',
  ],
  'rbac.authorization.k8s.io/v1 Role': [
    'kubernetes-models',
    'rbac.authorization.k8s.io/v1/Role.js',
    'Role',
  ],
  'rbac.authorization.k8s.io/v1 RoleBinding': [
    'kubernetes-models',
    'rbac.authorization.k8s.io/v1/RoleBinding.js',
    'RoleBinding',
  ],
  'resource.k8s.io/v1 ResourceClaimTemplate': [
    'kubernetes-models',
    'resource.k8s.io/v1/ResourceClaimTemplate.js',
    'ResourceClaimTemplate',
  ],
};

function packageDir(pkg: string): string {
  // Walking up to node_modules works from src/ and from a built dist/ alike.
  // eslint-disable-next-line no-restricted-syntax
  let dir = __dirname;
  for (;;) {
    const candidate = path.join(dir, 'node_modules', pkg);
    if (fs.existsSync(path.join(candidate, 'package.json'))) return candidate;
    const parent = path.dirname(dir);
    if (parent === dir) throw new Error(`Cannot find package ${pkg}`);
    dir = parent;
  }
}

// Jest replaces `require`, but leaves Node's `Module._load`.
const nodeModule = require('module') as {
  _load(
    request: string,
    parent: unknown,
    isMain: boolean,
  ): Record<string, unknown>;
};

const cache = new Map<string, ModelClass>();

function modelFor(key: string): ModelClass | undefined {
  const entry = MODEL_FILES[key];
  if (!entry) return undefined;
  const known = cache.get(key);
  if (known) return known;
  const [pkg, file, exportName] = entry;
  const loaded = nodeModule._load(
    path.join(packageDir(pkg), file),
    null,
    false,
  );
  const model = loaded[exportName] as ModelClass | undefined;
  if (typeof model !== 'function')
    throw new Error(`${pkg}/${file} does not export ${exportName}`);
  cache.set(key, model);
  return model;
}

/** @public */
export function hasSchema(apiVersion: unknown, kind: unknown): boolean {
  return `${apiVersion} ${kind}` in MODEL_FILES;
}

/**
 * Validates a plain object against its kind's schema. Returns the error
 * message, or undefined when valid or when we hold no schema for the kind.
 *
 * @public
 */
export function schemaError(object: {
  apiVersion?: unknown;
  kind?: unknown;
}): string | undefined {
  const Model = modelFor(`${object.apiVersion} ${object.kind}`);
  if (!Model) return undefined;
  try {
    new Model(JSON.parse(JSON.stringify(object))).validate();
    return undefined;
  } catch (e) {
    return (e as Error).message;
  }
}
