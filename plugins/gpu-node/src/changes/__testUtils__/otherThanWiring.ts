/**
 * TEST-ONLY: a bootstrap's notes without the ones about wiring its folders
 * into what applies the cluster (`bootstrap/wiring/wireGpuFolders.ts`, tested
 * in `wireGpuFolders.test.ts`), for tests of the other notes.
 */
const WIRING_NOTE =
  /^Lists `|inflates a Helm chart \(kustomize `helmCharts`\)|\bis not applied by |^\*\*To do\*\*: nothing in this repository applies /;

export function otherThanWiring(notes: readonly string[]): string[] {
  return notes.filter(note => !WIRING_NOTE.test(note));
}
