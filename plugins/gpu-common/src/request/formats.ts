/**
 * Text formats the request (and the cluster profile) accept. Regexes are
 * compiled once at module load: the schema runs on every plan of the form.
 */

/** DNS-1123 label: lowercase alphanumerics and `-`, at most 63 chars, no dots. */
const DNS1123_LABEL = /^[a-z0-9]([-a-z0-9]{0,61}[a-z0-9])?$/;

/** DNS-1123 subdomain: dot-separated labels, at most 253 chars. */
const DNS1123_SUBDOMAIN =
  /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/;

export function isDns1123Label(value: string): boolean {
  return value.length <= 63 && DNS1123_LABEL.test(value);
}

export function isDns1123Subdomain(value: string): boolean {
  return value.length <= 253 && DNS1123_SUBDOMAIN.test(value);
}

/** The name part of a qualified name: alphanumerics, `-`, `_`, `.` inside, at most 63. */
const QUALIFIED_NAME = /^([A-Za-z0-9]([-A-Za-z0-9_.]{0,61}[A-Za-z0-9])?)$/;

/** A label or taint key: `<prefix>/<name>` or `<name>`, the prefix a DNS-1123 subdomain. */
export function isQualifiedName(key: string): boolean {
  const parts = key.split('/');
  if (parts.length > 2) return false;
  const name = parts[parts.length - 1];
  if (!QUALIFIED_NAME.test(name)) return false;
  return parts.length === 1 || isDns1123Subdomain(parts[0]);
}

/**
 * Backstage owner ref `group:default/ml-platform` (or `user:jane`): kind
 * group or user, optional namespace, then the entity name Backstage allows.
 */
const OWNER_REF =
  /^(group|user):([a-z0-9]([-a-z0-9]{0,61}[a-z0-9])?\/)?[A-Za-z0-9]([-A-Za-z0-9_.]{0,61}[A-Za-z0-9])?$/;

/** @public */
export function isOwnerRef(value: string): boolean {
  return OWNER_REF.test(value);
}

/*
 * OCI image reference, after the grammar of distribution/reference:
 * [domain[:port]/]path[/path...][:tag][@algorithm:hex].
 */
const ALNUM = '[a-z0-9]+';
const SEPARATOR = '(?:[._]|__|[-]+)';
const PATH_COMPONENT = `${ALNUM}(?:${SEPARATOR}${ALNUM})*`;
const DOMAIN_COMPONENT = '(?:[a-zA-Z0-9]|[a-zA-Z0-9][a-zA-Z0-9-]*[a-zA-Z0-9])';
const DOMAIN = `(?:${DOMAIN_COMPONENT}(?:\\.${DOMAIN_COMPONENT})*|\\[[a-fA-F0-9:]+\\])(?::[0-9]+)?`;
const TAG = '[\\w][\\w.-]{0,127}';
const DIGEST =
  '[A-Za-z][A-Za-z0-9]*(?:[-_+.][A-Za-z][A-Za-z0-9]*)*:[0-9a-fA-F]{32,}';
const IMAGE_REF = new RegExp(
  `^(?:${DOMAIN}/)?${PATH_COMPONENT}(?:/${PATH_COMPONENT})*(?::${TAG})?(?:@${DIGEST})?$`,
);

/** Longest image reference we accept (the name part is capped at 255 upstream). */
export const MAX_IMAGE_REF_LENGTH = 512;

export function isImageReference(value: string): boolean {
  return value.length <= MAX_IMAGE_REF_LENGTH && IMAGE_REF.test(value);
}

/**
 * RFC 3339 date-time with a time zone (`2026-12-24T18:00:00Z`,
 * `2026-12-24T18:00:00.5+01:00`): what Kubernetes and every GitOps tool
 * read back unambiguously. The date itself must exist.
 */
const RFC3339_DATE_TIME =
  /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,9})?(Z|[+-]\d{2}:\d{2})$/;

export function isRfc3339DateTime(value: string): boolean {
  if (!RFC3339_DATE_TIME.test(value)) return false;
  const [year, month, day] = value.slice(0, 10).split('-').map(Number);
  const date = new Date(Date.UTC(year, month - 1, day));
  return (
    date.getUTCFullYear() === year &&
    date.getUTCMonth() === month - 1 &&
    date.getUTCDate() === day &&
    !Number.isNaN(Date.parse(value))
  );
}
