/**
 * What an import says about each object it read: a field with no `v1`
 * equivalent (with its value, never silently dropped), a field moved to
 * another object, an old default written out so behaviour stays, or an object
 * left as it is and why. The import's report (PR body, CLI, action output) is
 * a list of these.
 */

/**
 * The kind of a finding.
 *
 * - `no-v1-equivalent`: the field exists in the legacy API only; its value is
 *   in the finding, and the converted object goes without it.
 * - `moved`: the field now lives on another object (kubelet → EC2NodeClass).
 * - `default-kept`: a default changed between versions; the old one is
 *   written out so the nodes behave as before.
 * - `not-converted`: the object stays as it is (the reason says what to do).
 * - `not-understood`: something the import does not read stays untouched.
 * - `note`: what a reviewer should know (a behaviour the upgrade changes).
 *
 * @public
 */
export type ImportFindingKind =
  | 'no-v1-equivalent'
  | 'moved'
  | 'default-kept'
  | 'not-converted'
  | 'not-understood'
  | 'note';

/**
 * One line of the import report.
 *
 * @public
 */
export interface ImportFinding {
  kind: ImportFindingKind;
  /** Repository path of the file holding the object (set once the file is known). */
  path?: string;
  /** The object, e.g. `Provisioner "gpu"`. */
  object: string;
  /** The field of the object as read, dotted (e.g. `spec.provider`). */
  field?: string;
  /** The field's value, when the converted object no longer carries it. */
  value?: unknown;
  message: string;
}

/** `Kind "name"` of a Kubernetes object, for findings. */
export function objectLabel(object: {
  kind?: unknown;
  metadata?: unknown;
}): string {
  const name = (object.metadata as { name?: unknown } | undefined)?.name;
  return `${String(object.kind ?? 'object')} "${String(name ?? '?')}"`;
}
