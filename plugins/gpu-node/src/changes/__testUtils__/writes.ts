import type { ChangeSet, FileWrite } from '../types';

/** The files a change set writes; fails the test when it deletes any (a create or update flow never does). */
export function writes(changeSet: ChangeSet): FileWrite[] {
  const deleted = changeSet.changes.filter(c => c.action === 'delete');
  if (deleted.length > 0) {
    throw new Error(
      `the change set deletes ${deleted.map(c => c.path).join(', ')}`,
    );
  }
  return changeSet.changes as FileWrite[];
}
