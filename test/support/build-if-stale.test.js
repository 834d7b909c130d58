'use strict';
// Jest's globalSetup rebuilds dist/Code.js when an input of the build is newer: the tests never run an old
// bundle after src/ was edited.
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { staleBecause } = require('./build-if-stale');

let root;
beforeEach(() => {
  root = fs.mkdtempSync(path.join(os.tmpdir(), 'stale-'));
  fs.mkdirSync(path.join(root, 'src', 'features'), { recursive: true });
  fs.mkdirSync(path.join(root, 'dist'));
});
afterEach(() => fs.rmSync(root, { recursive: true, force: true }));

const write = (file, secondsAgo) => {
  fs.writeFileSync(path.join(root, file), 'x');
  const at = new Date(Date.now() - secondsAgo * 1000);
  fs.utimesSync(path.join(root, file), at, at);
};

test('a missing bundle is stale', () => {
  write('src/index.ts', 60);
  expect(staleBecause(root, ['src'], 'dist/Code.js')).toBe('dist/Code.js does not exist');
});

test('a bundle older than a source file deep in src/ is stale; a newer one is not', () => {
  write('src/index.ts', 60);
  write('src/features/unlock.ts', 30);
  write('dist/Code.js', 45);
  expect(staleBecause(root, ['src', 'rollup.config.mjs'], 'dist/Code.js')).toBe(
    `${path.join('src', 'features', 'unlock.ts')} is newer than dist/Code.js`,
  );
  write('dist/Code.js', 10);
  expect(staleBecause(root, ['src', 'rollup.config.mjs'], 'dist/Code.js')).toBeNull();
});

test('both bundles must be fresh: dist/ for clasp, dist-local/ for the tests', () => {
  fs.mkdirSync(path.join(root, 'dist-local'));
  write('src/index.ts', 60);
  write('dist/Code.js', 10);
  const bundles = ['dist/Code.js', 'dist-local/Code.js'];
  expect(staleBecause(root, ['src'], bundles)).toBe('dist-local/Code.js does not exist');
  write('dist-local/Code.js', 90);
  expect(staleBecause(root, ['src'], bundles)).toBe(
    `${path.join('src', 'index.ts')} is newer than dist-local/Code.js`,
  );
  write('dist-local/Code.js', 10);
  expect(staleBecause(root, ['src'], bundles)).toBeNull();
});
