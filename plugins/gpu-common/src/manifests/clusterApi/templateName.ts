import { contentHash } from '../../planner/contentHash';

/**
 * A machine template's name: the pool's name and a hash of the template's
 * spec. Cluster API treats machine templates as immutable (a MachineSet
 * keeps the template it was created from; a rollout follows a changed
 * reference, never an edited template), so a changed template is a new
 * object with a new name, and the same content always gets the same name
 * (also the copy of a team's bootstrap template that gives an adopted
 * MachineDeployment's nodes the pool label: gpu-node
 * `import/adoptMachineDeployment.ts`).
 *
 * @public
 */
export function templateName(pool: string, spec: unknown): string {
  return `${pool}-${contentHash(spec)}`;
}
