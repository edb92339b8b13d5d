/**
 * TEST-ONLY: the Helm values of the upstream Karpenter charts, vendored in
 * `../__fixtures__/upstream/` (see its SOURCES.md), as the schema the values
 * the bootstrap writes are checked against: the charts publish no
 * `values.schema.json`, so every key written must be one the chart's
 * `values.yaml` declares, with a value of the same type.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { parse } from 'yaml';

const UPSTREAM = path.join(__dirname, '../__fixtures__/upstream');

/** The chart's `values.yaml` at the vendored tag. */
export function upstreamChartValues(
  provider: 'aws-karpenter' | 'azure-karpenter',
): Record<string, unknown> {
  const file =
    provider === 'aws-karpenter'
      ? 'aws-karpenter-values.v1.14.1.yaml'
      : 'azure-karpenter-values.v1.14.2.yaml';
  return parse(readFileSync(path.join(UPSTREAM, file), 'utf8'));
}

function kind(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  return typeof value;
}

/**
 * Every leaf of `values` the chart does not declare, or declares with
 * another type, as `path: what is wrong`. Empty when all are the chart's.
 */
export function valuesNotInChart(
  values: unknown,
  chart: unknown,
  at: string[] = [],
): string[] {
  if (kind(values) !== 'object') {
    return kind(values) === kind(chart)
      ? []
      : [`${at.join('.')}: ${kind(values)}, the chart declares ${kind(chart)}`];
  }
  if (kind(chart) !== 'object') {
    return [`${at.join('.')}: a map, the chart declares ${kind(chart)}`];
  }
  return Object.entries(values as Record<string, unknown>).flatMap(
    ([key, value]) => {
      const declared = (chart as Record<string, unknown>)[key];
      return declared === undefined
        ? [`${[...at, key].join('.')}: not a value of the chart`]
        : valuesNotInChart(value, declared, [...at, key]);
    },
  );
}
