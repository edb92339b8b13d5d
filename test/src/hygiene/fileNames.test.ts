import { execFileSync } from 'child_process';
import path from 'path';

const REPO_ROOT = path.resolve(__dirname, '../../..');

/**
 * One file-naming convention, Backstage's: a module is named in camelCase
 * after what it exports (`poolCost.ts`), a component or class in PascalCase
 * (`GpuAllocationCard.tsx`), suffixes after dots (`.test.ts`,
 * `.builtinCatalog.test.ts`); and one folder name for test helpers,
 * `__testUtils__` (`__fixtures__` for data).
 */
const SOURCE = /^(?:plugins|packages)\/[^/]+\/(?:src|dev)\/.*\.tsx?$/;
const MODULE_NAME = /^[A-Za-z][A-Za-z0-9]*(?:\.[A-Za-z][A-Za-z0-9]*)*\.tsx?$/;
const HELPER_FOLDERS = /\/(?:testing|test-utils|testUtils|__tests__)\//;
/** A helper named as one (`testFixtures.ts`); a package's `testUtils` entry point is the exception. */
const HELPER_FILE = /^test[A-Z][A-Za-z]*\.tsx?$/;
const TEST_UTILS_ENTRY = /^plugins\/[^/]+\/src\/testUtils\.ts$/;

function trackedSources(): string[] {
  return execFileSync('git', ['ls-files'], { cwd: REPO_ROOT, encoding: 'utf8' })
    .split('\n')
    .filter(file => SOURCE.test(file));
}

describe('source file names', () => {
  it('are camelCase or PascalCase, with dotted suffixes', () => {
    const files = trackedSources();
    expect(files.length).toBeGreaterThan(100);
    expect(
      files.filter(file => !MODULE_NAME.test(path.basename(file))),
    ).toEqual([]);
  });

  it('keep test helpers in __testUtils__ folders', () => {
    const misplaced = trackedSources().filter(
      file =>
        HELPER_FOLDERS.test(file) ||
        (HELPER_FILE.test(path.basename(file)) &&
          !file.includes('/__testUtils__/') &&
          !TEST_UTILS_ENTRY.test(file)),
    );
    expect(misplaced).toEqual([]);
  });
});
