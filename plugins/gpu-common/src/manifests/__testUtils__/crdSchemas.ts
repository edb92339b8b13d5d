/**
 * TEST-ONLY: validates objects against vendored upstream CRDs, for kinds no
 * kubernetes-models package covers, for legacy API versions, and where a
 * provider ships its own copy of a CRD (Azure's `karpenter.sh` NodePool
 * carries Azure's label rules). gpu-common's copies are in `crds/` (sources in
 * `crds/SOURCES.md`); other packages pass the path of their own copies.
 *
 * The check is the CRD's structural `openAPIV3Schema` with ajv: types,
 * required fields, enums, bounds, patterns and the OpenAPI integer and
 * date-time formats. `x-kubernetes-*` keywords are dropped, so CEL rules
 * (`x-kubernetes-validations`) are not evaluated: a test that relies on one
 * reads it with `celRules`.
 */
import * as fs from 'fs';
import * as path from 'path';
import Ajv, { type ValidateFunction } from 'ajv';
import { parseAllDocuments } from 'yaml';

/** gpu-common's vendored CRDs. */
export const GPU_COMMON_CRDS = path.join(__dirname, 'crds');

interface CrdVersion {
  name: string;
  schema: { openAPIV3Schema: Record<string, unknown> };
}

interface Crd {
  spec: { group: string; names: { kind: string }; versions: CrdVersion[] };
}

/** A file name in gpu-common's `crds/`, or an absolute path. */
function crdPath(file: string): string {
  return path.isAbsolute(file) ? file : path.join(GPU_COMMON_CRDS, file);
}

/** The file's CRD of `kind` (a file may hold several, as NFD's does), else its first. */
function readCrd(file: string, kind: string): Crd {
  const crds = parseAllDocuments(fs.readFileSync(crdPath(file), 'utf8'))
    .map(d => d.toJS())
    .filter(d => d?.kind === 'CustomResourceDefinition');
  const crd = crds.find(d => d?.spec?.names?.kind === kind) ?? crds[0];
  if (!crd) throw new Error(`${file} holds no CustomResourceDefinition`);
  return crd as Crd;
}

/**
 * CRD patterns are Go (RE2) regular expressions; the only RE2 syntax the
 * vendored CRDs use that JavaScript lacks is a leading `(?i)` (AKSNodeClass
 * `vnetSubnetID`), which becomes the `i` flag.
 */
const re2Pattern = Object.assign(
  (pattern: string, flags: string) =>
    pattern.startsWith('(?i)')
      ? new RegExp(pattern.slice(4), `${flags}i`)
      : new RegExp(pattern, flags),
  { code: 'RE2 subset' },
);

const ajv = new Ajv({
  strict: false,
  allErrors: true,
  code: { regExp: re2Pattern },
});
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
// Formats the CRDs name that carry no rule for a structural check.
for (const name of ['duration', 'quantity', 'byte', 'uri', 'uuid', 'ip']) {
  ajv.addFormat(name, true);
}

/** Drops the `x-kubernetes-*` keywords. */
function withoutKubernetesKeywords(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutKubernetesKeywords);
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(
    Object.entries(value)
      .filter(([k]) => !k.startsWith('x-kubernetes-'))
      .map(([k, v]) => [k, withoutKubernetesKeywords(v)]),
  );
}

function versionOf(file: string, apiVersion: string, kind: string): CrdVersion {
  const crd = readCrd(file, kind);
  const [group, version] = apiVersion.split('/');
  if (crd.spec.group !== group || crd.spec.names.kind !== kind) {
    throw new Error(
      `${file} defines ${crd.spec.group} ${crd.spec.names.kind}, not ${group} ${kind}`,
    );
  }
  const served = crd.spec.versions.find(v => v.name === version);
  if (!served) throw new Error(`${file} serves no ${apiVersion}`);
  return served;
}

const compiled = new Map<string, ValidateFunction>();

/** The schema errors of `object` against the CRD in `file` (empty when it conforms). */
export function crdSchemaErrors(
  object: Record<string, unknown> | { apiVersion: string; kind: string },
  file: string,
): string[] {
  const { apiVersion, kind } = object as { apiVersion: string; kind: string };
  const key = `${crdPath(file)}#${apiVersion}#${kind}`;
  let validate = compiled.get(key);
  if (!validate) {
    const schema = versionOf(file, apiVersion, kind).schema.openAPIV3Schema;
    validate = ajv.compile(withoutKubernetesKeywords(schema) as object);
    compiled.set(key, validate);
  }
  if (validate(JSON.parse(JSON.stringify(object)))) return [];
  return (validate.errors ?? []).map(
    e => `${e.instancePath || '/'} ${e.message ?? ''}`,
  );
}

/** Throws with every failing path when `object` does not match the CRD in `file`. */
export function validateAgainstCrd(
  object: Record<string, unknown> | { apiVersion: string; kind: string },
  file: string,
): void {
  const errors = crdSchemaErrors(object, file);
  if (errors.length > 0) {
    const { apiVersion, kind } = object as { apiVersion: string; kind: string };
    throw new Error(
      `${kind} ${apiVersion} does not match ${path.basename(file)}: ${errors.join('; ')}`,
    );
  }
}

/** Every CEL rule (`x-kubernetes-validations[].rule`) of the CRD's version, as text. */
export function celRules(
  file: string,
  apiVersion: string,
  kind: string,
): string[] {
  const rules: string[] = [];
  const walk = (node: unknown) => {
    if (Array.isArray(node)) node.forEach(walk);
    else if (node && typeof node === 'object') {
      for (const [key, value] of Object.entries(node)) {
        if (key === 'x-kubernetes-validations' && Array.isArray(value)) {
          for (const v of value) {
            if (typeof v?.rule === 'string') rules.push(v.rule);
          }
        }
        walk(value);
      }
    }
  };
  walk(versionOf(file, apiVersion, kind).schema.openAPIV3Schema);
  return rules;
}
