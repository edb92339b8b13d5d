import { compileRepoLayout } from '../layout/compileRepoLayout';
import { parseWorkloads, parseWorkloadsInTurns } from './parseWorkloads';
import { parseYamlDocuments, type ParsedDocument } from './yamlObjects';

const layout = compileRepoLayout(undefined, []);

function documentsOf(files: Record<string, string>): ParsedDocument[] {
  return Object.entries(files).flatMap(
    ([path, text]) => parseYamlDocuments(path, text).documents,
  );
}

const deployment = (name: string, gpus: number, extra = '') => `
apiVersion: apps/v1
kind: Deployment
metadata: { name: ${name}, namespace: ml }
spec:
  replicas: 2
  template:
    spec:
      containers:
        - name: main
          resources: { limits: { nvidia.com/gpu: ${gpus} } }
${extra}`;

describe('parseWorkloads', () => {
  const docs = documentsOf({
    'apps/ml/a/deployment.yaml': deployment('a', 1),
    'apps/ml/b/deployment.yaml': deployment('b', 2),
    'apps/ml/web/deployment.yaml': deployment('web', 0).replace(
      /resources: .*/,
      'image: nginx',
    ),
    // A patch of b, in another file: one workload with its base.
    'apps/ml/b/replicas.yaml':
      'apiVersion: apps/v1\nkind: Deployment\nmetadata: { name: b, namespace: ml }\nspec: { replicas: 5 }\n',
  });

  it('gives the GPU workloads, a patch merged with its base by namespace and name', () => {
    const workloads = parseWorkloads(docs, layout);
    expect(workloads.map(w => [w.id, w.perReplica, w.path])).toEqual([
      ['ml/a', 1, 'apps/ml/a/deployment.yaml'],
      ['ml/b', 2, 'apps/ml/b/deployment.yaml'],
    ]);
  });

  it('gives the same workloads in slices, taking a turn after each document, each sighting grouped and each workload', async () => {
    let turns = 0;
    const sliced = await parseWorkloadsInTurns(
      docs,
      layout,
      undefined,
      async () => {
        turns++;
      },
    );
    expect(sliced).toEqual(parseWorkloads(docs, layout));
    // 4 documents, the 4 sightings grouped by id, then 3 ids (ml/a, ml/b, ml/web).
    expect(turns).toBe(4 + 4 + 3);
  });
});
