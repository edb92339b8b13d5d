import type { HelmRelease } from './helmRelease';
import { helmParameterValues } from './helmParameters';
import { readNfdTaints } from './nfdTaints';
import type { ValuesLayer } from './valuesLayer';

const releaseOf = (...layers: ValuesLayer[]) =>
  ({ layers }) as unknown as HelmRelease;

const parameters = (
  ...list: { name: string; value: string }[]
): ValuesLayer => ({
  where: '`spec.source.helm.parameters` of Application `argocd/dp`',
  form: 'parameters',
  content: { values: helmParameterValues(list) },
});

const valuesFile = (values: unknown): ValuesLayer => ({
  where: '`values.yaml`',
  form: 'values',
  content: { values },
});

describe('readNfdTaints', () => {
  it('reads `--set nfd.master.enableTaints=0` as Helm does: false, and tells to set the parameter', () => {
    expect(
      readNfdTaints(
        releaseOf(parameters({ name: 'nfd.master.enableTaints', value: '0' })),
        'nfd',
      ),
    ).toMatchObject({
      applies: false,
      toTurnOn:
        'the parameter `nfd.master.enableTaints` to `"true"` in `spec.source.helm.parameters` of Application `argocd/dp`',
    });
  });

  it('takes the flag by Go’s truth and the config file’s key only when it is true, under the subchart’s prefix', () => {
    const prefix = 'node-feature-discovery';
    const applies = (values: unknown) =>
      readNfdTaints(releaseOf(valuesFile(values)), prefix);
    expect(
      applies({ [prefix]: { master: { enableTaints: 'yes' } } }),
    ).toMatchObject({
      applies: true,
      onBy: `${prefix}.master.enableTaints`,
    });
    expect(
      applies({ [prefix]: { master: { config: { enableTaints: true } } } }),
    ).toMatchObject({
      applies: true,
      onBy: `${prefix}.master.config.enableTaints`,
    });
    expect(
      applies({ [prefix]: { master: { config: { enableTaints: 'true' } } } }),
    ).toMatchObject({
      applies: false,
      toTurnOn: `\`${prefix}.master.enableTaints: true\` in \`values.yaml\``,
    });
    expect(applies({ nfd: { master: { enableTaints: true } } }).applies).toBe(
      false,
    );
  });

  it('cannot tell when a source it cannot read comes first, unless one it reads turns them on', () => {
    const hidden: ValuesLayer = {
      where: 'Secret `nfd-values`',
      form: 'values',
      content: 'hidden',
    };
    const untold = readNfdTaints(releaseOf(hidden, valuesFile({})), 'nfd');
    expect(untold.applies).toBeUndefined();
    // Both keys' readings, for the caller to say why it cannot tell.
    expect(untold.untold).toEqual([
      { state: 'unknown', hidden: [hidden] },
      { state: 'unknown', hidden: [hidden] },
    ]);
    expect(
      readNfdTaints(
        releaseOf(
          valuesFile({ nfd: { master: { enableTaints: true } } }),
          hidden,
        ),
        'nfd',
      ).applies,
    ).toBe(true);
  });
});
