#!/usr/bin/env node
'use strict';
// `npm run fuzz -- --runs N [--seed S]`: the seeded exactly-once sequences (test/features/exactly-once-fuzz.test.js)
// N at a time from seed S (200 from 1 in `npm test`). Prints Jest's report; exits as Jest does.
const { spawnSync } = require('node:child_process');

const args = process.argv.slice(2);
const value = (name, fallback) => {
  const at = args.indexOf(name);
  return at >= 0 && args[at + 1] ? args[at + 1] : fallback;
};
const env = { ...process.env, FUZZ_RUNS: value('--runs', '200'), FUZZ_SEED: value('--seed', '1') };
const jest = require.resolve('jest/bin/jest');
const run = spawnSync(
  process.execPath,
  [jest, '--selectProjects', 'bundle', '--', 'test/features/exactly-once-fuzz.test.js'],
  { stdio: 'inherit', env },
);
process.exit(run.status === null ? 1 : run.status);
