'use strict';
// Three layers (docs/development.md, "Test layers"), selected by path so that no test file has to move:
// - unit: src/ modules through ts-jest, the emulator, the sandbox and the source checks; no build;
// - bundle: the built add-on (dist-local/Code.js) in the emulator against the sandbox, built once per run;
// - browser: the playground in Chromium.
// A new test file joins the layer of its folder; the few files of a unit folder that run a bundle are named.

const path = require('node:path');

// Absolute: Jest puts <rootDir> only at the start of a glob, and a negated glob starts with `!`.
const ROOT = __dirname.split(path.sep).join('/');

/** Tests that need no built bundle. */
const UNIT = [
  'test/unit/**/*.test.ts',
  'test/api/*.test.ts',
  'test/platform/*.test.ts',
  'test/source/*.test.js',
  'test/emulator/*.test.js',
  'test/sandbox/*.test.js',
  'test/support/*.test.js',
];
/**
 * In a folder above, but slow: runs the built add-on, or type-checks every page against all of src/ (15 s of
 * TypeScript, which would take most of the unit layer's 20 s).
 */
const UNIT_BUT_BUNDLE = ['test/emulator/gmail-sandbox.test.js', 'test/source/pages-contract.test.js'];
const BROWSER = ['test/browser/**/*.test.js'];

const at = (globs) => globs.map((glob) => path.posix.join(ROOT, glob));
const not = (globs) => at(globs).map((glob) => `!${glob}`);

const layer = (displayName, testMatch, more = {}) => ({
  displayName,
  testEnvironment: '<rootDir>/test/support/test-environment.js',
  testMatch,
  transform: {
    '^.+\\.ts$': ['ts-jest', { isolatedModules: true, tsconfig: { module: 'commonjs', target: 'ES2020' } }],
  },
  ...more,
});
// Builds dist/, dist-local/ and dist-local-gmail/ first when src/ (or the build) changed since the last build.
const built = { globalSetup: '<rootDir>/test/support/build-if-stale.js' };

/** @type {import('jest').Config} */
module.exports = {
  projects: [
    layer('unit', [...at(UNIT), ...not(UNIT_BUT_BUNDLE)]),
    layer(
      'bundle',
      [
        ...at(['test/**/*.test.js', 'test/**/*.test.ts']),
        ...not([...UNIT, ...BROWSER]),
        ...at(UNIT_BUT_BUNDLE),
      ],
      built,
    ),
    layer('browser', at(BROWSER), built),
  ],
  // Two cores: a bundle test keeps about one busy (the add-on and the sandbox's thread take turns), so one
  // worker per core; Jest's default (cores - 1) leaves one idle.
  maxWorkers: 2,
  // A bound for a machine loaded by other work (ten times slower): only a test that hangs takes this long.
  testTimeout: 300_000,
  reporters: ['default', '<rootDir>/test/support/count-reporter.js'],
};
