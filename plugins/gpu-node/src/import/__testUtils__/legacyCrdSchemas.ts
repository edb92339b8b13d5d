/**
 * TEST-ONLY: validates a legacy Karpenter object against the
 * `openAPIV3Schema` of its upstream CRD (vendored unchanged in
 * `../__fixtures__/crds/`, see its SOURCES.md), with ajv 8. The
 * `x-kubernetes-*` keywords are ignored: CEL rules
 * (`x-kubernetes-validations`) are not evaluated, so a test input may still
 * break one of them; the structural schema (fields, types, enums, patterns)
 * is checked.
 */
import Ajv, { type ValidateFunction } from 'ajv';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { parse } from 'yaml';

const CRD_FILES: Record<string, string> = {
  'karpenter.sh/v1alpha5 Provisioner': 'v0.31.4/karpenter.sh_provisioners.yaml',
  'karpenter.k8s.aws/v1alpha1 AWSNodeTemplate':
    'v0.31.4/karpenter.k8s.aws_awsnodetemplates.yaml',
  'karpenter.sh/v1beta1 NodePool': 'v0.37.7/karpenter.sh_nodepools.yaml',
  'karpenter.k8s.aws/v1beta1 EC2NodeClass':
    'v0.37.7/karpenter.k8s.aws_ec2nodeclasses.yaml',
};

/** The v1 NodePool of Karpenter v1.0.0, the first v1 (for the `v1.0.0` CRD's own check). */
export const V1_0_0_NODEPOOL_CRD = 'v1.0.0/karpenter.sh_nodepools.yaml';

const ajv = new Ajv({ strict: false, allErrors: true });
// The OpenAPI formats the CRDs use (ajv knows JSON Schema's only).
ajv.addFormat('int32', {
  type: 'number',
  validate: n => Number.isInteger(n) && n >= -(2 ** 31) && n < 2 ** 31,
});
ajv.addFormat('int64', { type: 'number', validate: Number.isInteger });
ajv.addFormat(
  'date-time',
  /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/i,
);
const cache = new Map<string, ValidateFunction>();

/** Drops the `x-kubernetes-*` keywords ajv does not know. */
function withoutKubernetesKeywords(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutKubernetesKeywords);
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(
    Object.entries(value)
      .filter(([k]) => !k.startsWith('x-kubernetes-'))
      .map(([k, v]) => [k, withoutKubernetesKeywords(v)]),
  );
}

function validatorFor(file: string, version: string): ValidateFunction {
  const key = `${file}#${version}`;
  const known = cache.get(key);
  if (known) return known;
  const crd = parse(
    readFileSync(
      path.join(__dirname, '..', '__fixtures__', 'crds', file),
      'utf8',
    ),
  );
  const served = crd.spec.versions.find(
    (v: { name: string }) => v.name === version,
  );
  if (!served) throw new Error(`${file} serves no ${version}`);
  const validate = ajv.compile(
    withoutKubernetesKeywords(served.schema.openAPIV3Schema) as object,
  );
  cache.set(key, validate);
  return validate;
}

/**
 * The schema errors of a legacy object (empty when it conforms). `crdFile`
 * picks another vendored CRD than the default of its apiVersion/kind.
 */
export function legacySchemaErrors(
  object: { apiVersion: string; kind: string },
  crdFile?: string,
): string[] {
  const version = object.apiVersion.split('/')[1];
  const file = crdFile ?? CRD_FILES[`${object.apiVersion} ${object.kind}`];
  if (!file)
    throw new Error(`no legacy CRD for ${object.apiVersion} ${object.kind}`);
  const validate = validatorFor(file, version);
  if (validate(JSON.parse(JSON.stringify(object)))) return [];
  return (validate.errors ?? []).map(
    e => `${e.instancePath || '/'} ${e.message ?? ''}`,
  );
}
