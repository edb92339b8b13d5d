/**
 * Which files kustomize reads as a kustomization, and the folder one stands
 * for (kubernetes-sigs/kustomize api/konfig/general.go
 * `RecognizedKustomizationFileNames`, v4.5.4 and v5.x alike).
 */

/** The recognised names, in kustomize's order of preference. */
export const KUSTOMIZATION_FILE_NAMES = [
  'kustomization.yaml',
  'kustomization.yml',
  'Kustomization',
] as const;

/** @public */
export function isKustomizationFile(path: string): boolean {
  const name = path.slice(path.lastIndexOf('/') + 1);
  return (KUSTOMIZATION_FILE_NAMES as readonly string[]).includes(name);
}

/** The repository folder of a kustomization file, '.' for the top. */
export function kustomizationFolder(path: string): string {
  const slash = path.lastIndexOf('/');
  return slash < 0 ? '.' : path.slice(0, slash);
}

/** Lower is preferred: two kustomization files in one folder is kustomize's error, about the first name. */
export function fileNamePreference(path: string): number {
  return KUSTOMIZATION_FILE_NAMES.indexOf(
    path.slice(path.lastIndexOf('/') + 1) as never,
  );
}
