'use strict';
// Jest globalSetup of the bundle and browser layers (jest.config.js; the unit layer needs no build). Their
// tests run the built add-on (dist/, dist-local/), so a run after editing src/ must not test the previous
// build: when a bundle is missing or older than any input of the build, it is built first, once per run, with
// the project's rollup config (whose TypeScript plugin stops on a type error, like `npm run build`).
const fs = require('node:fs');
const path = require('node:path');
const { execFileSync } = require('node:child_process');

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

module.exports = async function buildIfStale() {
  const reason = staleBecause();
  if (!reason) return;
  process.stdout.write(`\n${reason}: building it (npm run build) before the tests…\n`);
  const rollup = path.join(ROOT, 'node_modules', 'rollup', 'dist', 'bin', 'rollup');
  try {
    execFileSync(process.execPath, [rollup, '-c', 'rollup.config.mjs', '--silent'], {
      cwd: ROOT,
      stdio: 'pipe',
    });
  } catch (error) {
    throw new Error(`${reason}, and the build failed: run npm run build.\n${error.stderr || error.message}`, {
      cause: error,
    });
  }
};
module.exports.staleBecause = staleBecause;
