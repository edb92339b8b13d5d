import path from 'path';
import {
  importCycles,
  importGraphOf,
  importGraphOfFolder,
} from './importCycles';
import { REPO_ROOT } from './longFunctions';

/**
 * gpu-common's modules import each other in one direction (issue 26): the
 * planner, manifests, cluster, capacity and providers once formed four small
 * cycles, so that no one of them could be read, tested or moved alone. Types
 * they share live in files of their own (`manifests/nodeSelectorRequirement.ts`,
 * `cluster/unavailable.ts`), below the modules that use them.
 */
describe('import cycles', () => {
  describe('the walk', () => {
    it('finds modules that import each other round a loop, type imports too', () => {
      const graph = importGraphOf(
        new Map([
          ['a/one.ts', "import { two } from '../b/two';"],
          ['b/two.ts', "import type { Three } from './three';"],
          ['b/three.ts', "export { one } from '../a/one';"],
          ['c/index.ts', "import { two } from '../b/two';"],
          ['d.ts', "import { c } from './c';\nimport x from 'yaml';"],
        ]),
      );
      expect(graph.get('d.ts')).toEqual(['c/index.ts']);
      expect(importCycles(graph)).toEqual([
        ['a/one.ts', 'b/three.ts', 'b/two.ts'],
      ]);
    });

    it('finds none in a graph that only goes down', () => {
      const graph = importGraphOf(
        new Map([
          ['a.ts', "import { b } from './b';"],
          ['b.ts', "import { c } from './c';"],
          ['c.ts', 'export const c = 1;'],
        ]),
      );
      expect(importCycles(graph)).toEqual([]);
    });
  });

  it('gpu-common has none', () => {
    const graph = importGraphOfFolder(
      path.join(REPO_ROOT, 'plugins/gpu-common/src'),
    );
    expect(graph.size).toBeGreaterThan(100);
    expect(importCycles(graph)).toEqual([]);
  });
});
