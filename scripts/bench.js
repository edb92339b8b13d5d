#!/usr/bin/env node
/*
 * `npm run bench`: speed goals live here, never in unit tests. Runs the
 * TypeScript benchmarks in bench/ through Backstage's node transform.
 * Pass a name to run one: `npm run bench -- plan-render`.
 */
require('@backstage/cli-node/config/nodeTransform.cjs');
const { runBenchmarks } = require('../bench/index.ts');

runBenchmarks(process.argv.slice(2)).then(
  () => {},
  error => {
    console.error(error);
    process.exitCode = 1;
  },
);
