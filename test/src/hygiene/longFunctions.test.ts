import { readFileSync } from 'fs';
import path from 'path';
import {
  LongFunction,
  MAX_LINES,
  longFunctionsOf,
  longFunctionsOfRepository,
  productionSources,
} from './longFunctions';

/**
 * Functions cut where the size went (issue 26): a function over MAX_LINES
 * lines says why in a comment directly above it (`// long because: …`, or the
 * same words on a line of its JSDoc), or it is on the renovation's to-do list,
 * `longFunctionsToDo.txt`, with its line count. The list only shrinks: a
 * listed function that grows fails, and so does one that shrank, was cut or
 * explained while its line stays (lower or drop the line).
 */
const TO_DO_FILE = path.join(__dirname, 'longFunctionsToDo.txt');

interface ToDo {
  file: string;
  name: string;
  lines: number;
}

function readToDo(): ToDo[] {
  return readFileSync(TO_DO_FILE, 'utf8')
    .split('\n')
    .map(line => line.trim())
    .filter(line => line !== '' && !line.startsWith('#'))
    .map(line => {
      const [lines, file, name] = line.split(/\s+/);
      return { file, name, lines: Number(lines) };
    });
}

const key = (f: { file: string; name: string }) => `${f.file} ${f.name}`;
const toDoLine = (f: LongFunction) => `${f.lines} ${f.file} ${f.name}`;

/** `count` lines: a function of `count` lines, with `above` as its leading comment. */
function functionOf(count: number, above = ''): string {
  const body = Array.from(
    { length: count - 2 },
    (_, i) => `  const v${i} = ${i};`,
  );
  return `${above}\nexport function sample() {\n${body.join('\n')}\n}\n`;
}

describe('long functions', () => {
  describe('the scanner', () => {
    it(`finds a function over ${MAX_LINES} lines and counts its lines`, () => {
      expect(longFunctionsOf('a.ts', functionOf(MAX_LINES))).toEqual([]);
      expect(longFunctionsOf('a.ts', functionOf(MAX_LINES + 1))).toEqual([
        {
          file: 'a.ts',
          name: 'sample',
          lines: MAX_LINES + 1,
          explained: false,
        },
      ]);
    });

    it('accepts a "long because" comment or JSDoc line directly above', () => {
      const line = longFunctionsOf(
        'a.ts',
        functionOf(
          90,
          '// long because: one table of rules, read top to bottom',
        ),
      );
      const jsDoc = longFunctionsOf(
        'a.ts',
        functionOf(90, '/**\n * Samples.\n * long because: one JSX tree\n */'),
      );
      const bare = longFunctionsOf('a.ts', functionOf(90, '// long because'));
      const elsewhere = longFunctionsOf(
        'a.ts',
        `// long because: not this one\nconst x = 1;\n${functionOf(90)}`,
      );
      expect([line, jsDoc, bare, elsewhere].map(f => f[0].explained)).toEqual([
        true,
        true,
        false,
        false,
      ]);
    });

    it('names methods by their class, arrows by their variable, callbacks by their call', () => {
      const body = Array.from({ length: 85 }, () => '    work();').join('\n');
      const text = [
        `class Index {\n  refresh() {\n${body}\n  }\n}`,
        `const route = async () => {\n${body}\n};`,
        `router.get('/a', async () => {\n${body}\n});`,
        `router.get('/b', async () => {\n${body}\n});`,
      ].join('\n');
      expect(longFunctionsOf('a.tsx', text).map(f => f.name)).toEqual([
        'Index.refresh',
        'route',
        'get(callback)',
        'get(callback)#2',
      ]);
    });
  });

  const found = longFunctionsOfRepository();
  const toDo = readToDo();

  it('say why they are long, or are on the to-do list', () => {
    // The scan sees the packages' sources (none over the limit is the goal,
    // so an empty finding alone proves nothing).
    expect(productionSources()).toEqual(
      expect.arrayContaining([
        'plugins/gpu-node/src/publish/updateOpenPullRequests.ts',
        'plugins/gpu/src/components/GpuOverviewPage/GpuOverviewPage.tsx',
      ]),
    );
    const listed = new Set(toDo.map(key));
    const unexplained = found.filter(f => !f.explained && !listed.has(key(f)));
    // Cut the function into named steps; if it must stay long, say why above it.
    expect(unexplained.map(toDoLine)).toEqual([]);
  });

  it('leave the to-do list as they are cut, and never grow on it', () => {
    const now = new Map(found.filter(f => !f.explained).map(f => [key(f), f]));
    const stale = toDo.flatMap(entry => {
      const current = now.get(key(entry));
      if (!current) return [`${key(entry)}: cut or explained, drop its line`];
      if (current.lines > entry.lines) {
        return [
          `${key(entry)}: grew from ${entry.lines} to ${current.lines} lines, cut it`,
        ];
      }
      if (current.lines < entry.lines) {
        return [
          `${key(entry)}: now ${current.lines} lines, lower its line to that`,
        ];
      }
      return [];
    });
    expect(stale).toEqual([]);
  });
});
