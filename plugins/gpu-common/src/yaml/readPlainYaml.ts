import { CORE_SCHEMA, loadAll } from 'js-yaml';

/**
 * What js-yaml reads differently from `yaml` (found by comparing the two on
 * every short token in several positions; the test keeps that comparison),
 * left to `yaml`:
 * - anchors and aliases (`&a`, `*a`: `yaml` caps their expansion, js-yaml
 *   does not), tags (`!x`), complex keys (`? `);
 * - signed hex, octal and leading-dot numbers (`-0x1F`, `-.5`);
 * - text after a document marker on its line (`--- a: 1`, `---x`);
 * - null as a key (`~: 1`: js-yaml names it `null`, `yaml` the empty string).
 * Plain text that merely contains such characters (a `*.example.com` host)
 * is declined too; that file is just read the slower way.
 */
const NOT_PLAIN =
  /[&*!]|^\s*\?(?:\s|$)|[-+](?:\.[0-9]|0[xoXO])|^(?:---|\.\.\.)(?![ \t]*$|[ \t]+#)|(?:^|[\s{,[])(?:~|null|Null|NULL)[ \t]*:(?:\s|$)/m;

/**
 * What every match of `NOT_PLAIN` contains (its alternatives' characters
 * without their context), tested first: most manifests hold none of it,
 * and this costs a fifth of `NOT_PLAIN` over a first index's 20k files.
 */
const MAY_BE_NOT_PLAIN = /[&*!?~]|[-+][.0]|^(?:---|\.\.\.)|null|Null|NULL/m;

/**
 * The documents of a plain YAML file (Kubernetes manifests, GPU requests)
 * as data, read by js-yaml with the YAML 1.2 core schema — the schema `yaml`
 * reads with, so both give the same values — about ten times faster than
 * `yaml`'s document model. The allocation index reads every file of the
 * GitOps repository on its first run, which made `yaml` most of that time
 * (`npm run bench -- allocation-index`). Undefined when the file is not
 * plain or js-yaml refuses it: the caller reads it with `yaml`.
 *
 * @public
 */
export function readPlainYamlDocuments(text: string): unknown[] | undefined {
  if (MAY_BE_NOT_PLAIN.test(text) && NOT_PLAIN.test(text)) return undefined;
  try {
    return loadAll(text, undefined, { schema: CORE_SCHEMA });
  } catch {
    return undefined;
  }
}
