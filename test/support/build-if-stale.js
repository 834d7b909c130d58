'use strict';
// Jest globalSetup of the bundle and browser layers (jest.config.js; the unit layer needs no build). Their
// tests run the built add-on (dist/, dist-local/), so a run after editing src/ must not test the previous
// build: when a bundle is missing or older than any input of the build, it is built first, once per run, as
// `npm run build` builds it: the types checked (tsc --noEmit) and rollup with the project's config, side by side
// (the build compiles each file on its own and checks no type). A type error fails the run and leaves no bundle.
const fs = require('node:fs');
const path = require('node:path');
const { execFile } = require('node:child_process');
const { promisify } = require('node:util');

const ROOT = path.join(__dirname, '..', '..');
/** What the bundles are made from (files, or folders read recursively). */
const INPUTS = ['src', 'dev/build', 'rollup.config.mjs', 'tsconfig.json', 'appsscript.json', 'package.json'];
/** What the build writes: dist/ (pushed by clasp), dist-local/ and dist-local-gmail/ (tests, playground). */
const BUNDLES = ['dist/Code.js', 'dist-local/Code.js', 'dist-local-gmail/Code.js'];

function newestFile(root, entry) {
  const full = path.join(root, entry);
  if (!fs.existsSync(full)) return { file: null, mtimeMs: 0 };
  const stat = fs.statSync(full);
  if (!stat.isDirectory()) return { file: entry, mtimeMs: stat.mtimeMs };
  return fs
    .readdirSync(full)
    .map((name) => newestFile(root, path.join(entry, name)))
    .reduce((a, b) => (b.mtimeMs > a.mtimeMs ? b : a), { file: null, mtimeMs: 0 });
}

/** Why the bundles are stale (an input newer than one of them, or one missing), or null. */
function staleBecause(root = ROOT, inputs = INPUTS, bundles = BUNDLES) {
  const newest = inputs
    .map((entry) => newestFile(root, entry))
    .reduce((a, b) => (b.mtimeMs > a.mtimeMs ? b : a));
  for (const bundle of [].concat(bundles)) {
    const built = path.join(root, bundle);
    if (!fs.existsSync(built)) return `${bundle} does not exist`;
    if (newest.mtimeMs > fs.statSync(built).mtimeMs) return `${newest.file} is newer than ${bundle}`;
  }
  return null;
}

/** Runs a tool of node_modules in the project; rejects with its output when it fails. */
const run = (tool, args) =>
  promisify(execFile)(process.execPath, [path.join(ROOT, 'node_modules', ...tool), ...args], {
    cwd: ROOT,
    maxBuffer: 16 * 1024 * 1024,
  });

module.exports = async function buildIfStale() {
  const reason = staleBecause();
  if (!reason) return;
  process.stdout.write(`\n${reason}: building it (npm run build) before the tests…\n`);
  const steps = await Promise.allSettled([
    run(['typescript', 'bin', 'tsc'], ['--noEmit', '-p', 'tsconfig.json']),
    run(['rollup', 'dist', 'bin', 'rollup'], ['-c', 'rollup.config.mjs', '--silent']),
  ]);
  const failed = steps.find((step) => step.status === 'rejected');
  if (!failed) return;
  for (const bundle of BUNDLES) fs.rmSync(path.join(ROOT, bundle), { force: true });
  const { stdout, stderr, message } = failed.reason;
  throw new Error(
    `${reason}, and the build failed: run npm run build.\n${stdout || ''}${stderr || message}`,
    {
      cause: failed.reason,
    },
  );
};
module.exports.staleBecause = staleBecause;
