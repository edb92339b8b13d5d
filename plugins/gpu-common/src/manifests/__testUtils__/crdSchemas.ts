/**
 * TEST-ONLY: validates objects against vendored upstream CRDs (`crds/`, with
 * their sources in `crds/SOURCES.md`) where no kubernetes-models package
 * covers the kind or where a provider ships its own copy of a CRD (Azure's
 * `karpenter.sh` NodePool carries Azure's label rules).
 *
 * The check is the CRD's structural `openAPIV3Schema` with ajv: types,
 * required fields, enums, bounds, patterns. `x-kubernetes-*` keywords and
 * `format`s are ignored, and CEL rules (`x-kubernetes-validations`) are not
 * evaluated: a test that relies on one reads it with `celRules`.
 */
import * as fs from 'fs';
import * as path from 'path';
import Ajv, { type ValidateFunction } from 'ajv';
import { parseAllDocuments } from 'yaml';

const CRD_DIR = path.join(__dirname, 'crds');

interface CrdVersion {
  name: string;
  schema: { openAPIV3Schema: Record<string, unknown> };
}

interface Crd {
  spec: {
    group: string;
    names: { kind: string };
    versions: CrdVersion[];
  };
}

function readCrd(file: string): Crd {
  const docs = parseAllDocuments(
    fs.readFileSync(path.join(CRD_DIR, file), 'utf8'),
  );
  const crd = docs
    .map(d => d.toJS())
    .find(d => d?.kind === 'CustomResourceDefinition');
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
  validateFormats: false,
  code: { regExp: re2Pattern },
});
const compiled = new Map<string, ValidateFunction>();

function versionOf(file: string, apiVersion: string, kind: string): CrdVersion {
  const crd = readCrd(file);
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

/**
 * Validates `object` against the CRD in `crds/<file>`; throws with every
 * failing path when it does not conform.
 */
export function validateAgainstCrd(
  object: Record<string, unknown>,
  file: string,
): void {
  const { apiVersion, kind } = object as { apiVersion: string; kind: string };
  const key = `${file}#${apiVersion}`;
  let validate = compiled.get(key);
  if (!validate) {
    validate = ajv.compile(
      versionOf(file, apiVersion, kind).schema.openAPIV3Schema,
    );
    compiled.set(key, validate);
  }
  const plain = JSON.parse(JSON.stringify(object));
  if (!validate(plain)) {
    const errors = (validate.errors ?? [])
      .map(e => `${e.instancePath || '/'} ${e.message}`)
      .join('; ');
    throw new Error(`${kind} ${apiVersion} does not match ${file}: ${errors}`);
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
          for (const v of value)
            if (typeof v?.rule === 'string') rules.push(v.rule);
        }
        walk(value);
      }
    }
  };
  walk(versionOf(file, apiVersion, kind).schema.openAPIV3Schema);
  return rules;
}
