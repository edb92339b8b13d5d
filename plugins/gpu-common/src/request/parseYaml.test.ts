import { GpuInputError } from '../errors';
import { MAX_REQUEST_YAML_BYTES, parseGpuRequestYaml } from './parseYaml';

const VALID = `apiVersion: gpu.backstage.io/v1alpha1
kind: GpuRequest
metadata:
  name: llm-inference
  namespace: ml-team
spec:
  owner: group:default/ml-platform
  gpu:
    model: t4
    sharing: time-slicing
    replicas: 4
    vramGiB: 4
  workload:
    image: ghcr.io/acme/llm-server:1.2.3
`;

function issuesOf(text: string) {
  try {
    parseGpuRequestYaml(text);
  } catch (error) {
    expect(error).toBeInstanceOf(GpuInputError);
    return (error as GpuInputError).issues;
  }
  throw new Error('expected a GpuInputError');
}

function firstIssue(text: string) {
  return issuesOf(text)[0];
}

describe('parseGpuRequestYaml', () => {
  it('parses a valid request with defaults', () => {
    const request = parseGpuRequestYaml(VALID);
    expect(request.metadata.name).toBe('llm-inference');
    expect(request.spec.capacityTypes).toEqual(['on-demand']);
  });

  it('accepts a single document with an explicit start marker', () => {
    expect(parseGpuRequestYaml(`---\n${VALID}`).kind).toBe('GpuRequest');
  });

  it('rejects input over 1 MiB before parsing', () => {
    const big = `${VALID}# ${'x'.repeat(MAX_REQUEST_YAML_BYTES)}\n`;
    expect(firstIssue(big).rule).toBe('max-size');
  });

  it('counts UTF-8 bytes, not characters, for the size limit', () => {
    const padding = 'é'.repeat(Math.ceil(MAX_REQUEST_YAML_BYTES / 2));
    expect(firstIssue(`${VALID}# ${padding}\n`).rule).toBe('max-size');
  });

  it('rejects text that is not YAML', () => {
    expect(firstIssue('kind: [unclosed').rule).toBe('yaml-syntax');
  });

  it('rejects duplicate keys', () => {
    expect(firstIssue(`${VALID}kind: GpuRequest\n`).rule).toBe('yaml-syntax');
  });

  it.each([
    ['a scalar', 'just a string'],
    ['a list', '- a\n- b\n'],
    ['null', '~'],
  ])('rejects %s instead of a mapping', (_label, text) => {
    expect(firstIssue(text).rule).toBe('yaml-mapping');
  });

  it('rejects an empty document', () => {
    expect(firstIssue('').rule).toMatch(/^yaml-(empty|mapping)$/);
  });

  it('rejects several documents', () => {
    expect(firstIssue(`${VALID}---\n${VALID}`).rule).toBe(
      'yaml-multi-document',
    );
  });

  it('rejects a YAML bomb (aliases)', () => {
    const bomb = [
      'a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]',
      'b: &b [*a,*a,*a,*a,*a,*a,*a,*a,*a]',
      'c: &c [*b,*b,*b,*b,*b,*b,*b,*b,*b]',
      'd: [*c,*c,*c,*c,*c,*c,*c,*c,*c]',
    ].join('\n');
    expect(firstIssue(bomb).rule).toBe('yaml-alias');
  });

  it('rejects a lone anchor even without an alias', () => {
    expect(firstIssue(VALID.replace('metadata:', 'metadata: &m')).rule).toBe(
      'yaml-alias',
    );
  });

  it('rejects merge keys that would smuggle values', () => {
    const text = VALID.replace('  name: llm-inference', '  <<: {name: x}');
    expect(issuesOf(text)).toContainEqual(
      expect.objectContaining({ path: 'metadata.<<', rule: 'unknown-key' }),
    );
  });

  it('passes schema errors through with field paths', () => {
    expect(firstIssue(VALID.replace('replicas: 4', 'replicas: 0'))).toEqual(
      expect.objectContaining({ path: 'spec.gpu.replicas', rule: 'min' }),
    );
  });

  it('rejects a __proto__ key as unknown and pollutes nothing', () => {
    const text = VALID.replace(
      'kind: GpuRequest',
      'kind: GpuRequest\n__proto__: {polluted: true}',
    );
    expect(issuesOf(text)).toEqual([
      expect.objectContaining({ path: '__proto__', rule: 'unknown-key' }),
    ]);
    expect(({} as any).polluted).toBeUndefined();
  });

  it('rejects infinite numbers that YAML can express', () => {
    expect(firstIssue(VALID.replace('vramGiB: 4', 'vramGiB: .inf'))).toEqual(
      expect.objectContaining({ path: 'spec.gpu.vramGiB' }),
    );
  });
});
