/**
 * TEST-ONLY: validates objects with the real kubernetes-models schemas.
 *
 * Why the detour through Node's own loader: kubernetes-models and
 * @kubernetes-models/karpenter are ESM-only packages whose `exports` have only
 * an `import` condition. Jest (CommonJS, `require` conditions) cannot resolve
 * them, and switching Jest to `import` conditions breaks Jest's own `.mjs`
 * dependencies. Node 20.19+ can `require()` synchronous ESM natively, so the
 * model files are loaded by absolute path through Node's real module loader,
 * untouched by Jest. Node APIs are fine here: this file is never imported by
 * library code (gpu-common itself stays isomorphic).
 */
import * as fs from 'fs';
import * as path from 'path';
import type { KubernetesObject } from '../types';

interface ModelClass {
  new (data: unknown): { validate(): void };
}

/** Which model validates which apiVersion/kind, as package-relative files. */
const MODEL_FILES: Record<
  string,
  [pkg: string, file: string, exportName: string]
> = {
  'karpenter.sh/v1/NodePool': [
    '@kubernetes-models/karpenter',
    'karpenter.sh/v1/NodePool.js',
    'NodePool',
  ],
  'karpenter.sh/v1alpha1/NodeOverlay': [
    '@kubernetes-models/karpenter',
    'karpenter.sh/v1alpha1/NodeOverlay.js',
    'NodeOverlay',
  ],
  'karpenter.k8s.aws/v1/EC2NodeClass': [
    '@kubernetes-models/karpenter',
    'karpenter.k8s.aws/v1/EC2NodeClass.js',
    'EC2NodeClass',
  ],
  'apps/v1/Deployment': [
    'kubernetes-models',
    'apps/v1/Deployment.js',
    'Deployment',
  ],
  'apps/v1/StatefulSet': [
    'kubernetes-models',
    'apps/v1/StatefulSet.js',
    'StatefulSet',
  ],
  // What a cluster's API answers (the gpu backend's fake API server).
  'v1/Node': ['kubernetes-models', 'v1/Node.js', 'Node'],
  'v1/Pod': ['kubernetes-models', 'v1/Pod.js', 'Pod'],
  'v1/Event': ['kubernetes-models', 'v1/Event.js', 'Event'],
  'v1/ConfigMap': ['kubernetes-models', 'v1/ConfigMap.js', 'ConfigMap'],
  'batch/v1/Job': ['kubernetes-models', 'batch/v1/Job.js', 'Job'],
  'batch/v1/CronJob': ['kubernetes-models', 'batch/v1/CronJob.js', 'CronJob'],
  'resource.k8s.io/v1/ResourceClaimTemplate': [
    'kubernetes-models',
    'resource.k8s.io/v1/ResourceClaimTemplate.js',
    'ResourceClaimTemplate',
  ],
  'resource.k8s.io/v1/ResourceClaim': [
    'kubernetes-models',
    'resource.k8s.io/v1/ResourceClaim.js',
    'ResourceClaim',
  ],
};

function packageDir(pkg: string): string {
  let dir = __dirname;
  for (;;) {
    const candidate = path.join(dir, 'node_modules', pkg);
    if (fs.existsSync(path.join(candidate, 'package.json'))) return candidate;
    const parent = path.dirname(dir);
    if (parent === dir) throw new Error(`Cannot find package ${pkg}`);
    dir = parent;
  }
}

// Jest replaces `require` and `createRequire`, but leaves Node's `Module._load`.
const nodeModule = require('module') as {
  _load(
    request: string,
    parent: unknown,
    isMain: boolean,
  ): Record<string, unknown>;
};

const cache = new Map<string, ModelClass>();

export function modelFor(apiVersion: string, kind: string): ModelClass {
  const key = `${apiVersion}/${kind}`;
  const known = cache.get(key);
  if (known) return known;
  const entry = MODEL_FILES[key];
  if (!entry) throw new Error(`No schema model registered for ${key}`);
  const [pkg, file, exportName] = entry;
  const loaded = nodeModule._load(
    path.join(packageDir(pkg), file),
    null,
    false,
  );
  const model = loaded[exportName] as ModelClass | undefined;
  if (typeof model !== 'function') {
    throw new Error(`${pkg}/${file} does not export ${exportName}`);
  }
  cache.set(key, model);
  return model;
}

/**
 * Validates one object against the schema of its apiVersion/kind; throws the
 * model's validation error (naming the failing path) when it does not conform.
 */
export function validateAgainstSchema(
  object: KubernetesObject | Record<string, unknown>,
): void {
  const { apiVersion, kind } = object as { apiVersion: string; kind: string };
  const Model = modelFor(apiVersion, kind);
  // Plain JSON copy: the model must see exactly what the serializer would.
  new Model(JSON.parse(JSON.stringify(object))).validate();
}
