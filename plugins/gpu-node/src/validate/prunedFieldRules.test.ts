import { promises as fs } from 'fs';
import { join } from 'path';
import { parseAllDocuments } from 'yaml';
import { fieldTreeOf, FieldTree } from './crdFieldTree';
import { CRD_FIELD_TREES } from './crdFieldTrees.generated';

const CRDS = join(__dirname, '__fixtures__/crds');
const GENERATED = join(__dirname, 'crdFieldTrees.generated.ts');

/** `group/version Kind` → field tree, for every served version of the vendored CRDs. */
async function treesOfVendoredCrds(): Promise<Record<string, FieldTree>> {
  const out: Record<string, FieldTree> = {};
  const files = (await fs.readdir(CRDS))
    .filter(f => f.endsWith('.yaml'))
    .sort();
  for (const file of files) {
    const text = await fs.readFile(join(CRDS, file), 'utf8');
    for (const crd of parseAllDocuments(text).map(d => d.toJS())) {
      for (const version of crd.spec.versions) {
        if (!version.served) continue;
        out[`${crd.spec.group}/${version.name} ${crd.spec.names.kind}`] =
          fieldTreeOf(version.schema.openAPIV3Schema);
      }
    }
  }
  return out;
}

describe('the CRD field trees validate reads', () => {
  it("are the vendored CRDs' structural schemas", async () => {
    const trees = await treesOfVendoredCrds();
    // After updating a vendored CRD: WRITE_CRD_FIELD_TREES=1 on this test rewrites the data file.
    if (process.env.WRITE_CRD_FIELD_TREES) {
      const head = (await fs.readFile(GENERATED, 'utf8').catch(() => '')).split(
        '\nexport const CRD_FIELD_TREES:',
      )[0];
      await fs.writeFile(
        GENERATED,
        `${head}\nexport const CRD_FIELD_TREES: Record<string, FieldTree> = ${JSON.stringify(trees)};\n`,
      );
    }
    expect(CRD_FIELD_TREES).toEqual(trees);
    expect(Object.keys(trees).sort()).toEqual([
      'karpenter.azure.com/v1alpha2 AKSNodeClass',
      'karpenter.azure.com/v1beta1 AKSNodeClass',
      'karpenter.k8s.aws/v1 EC2NodeClass',
      'karpenter.sh/v1 NodePool',
      'karpenter.sh/v1alpha1 NodeOverlay',
    ]);
  });
});
