/** @type {import('jest').Config} */
module.exports = {
  testEnvironment: 'node',
  roots: ['<rootDir>/test'],
  testMatch: ['**/*.test.js', '**/*.test.ts'],
  transform: {
    '^.+\\.ts$': ['ts-jest', { isolatedModules: true, tsconfig: { module: 'commonjs', target: 'ES2020' } }],
  },
  testTimeout: 60000,
  // Builds dist/Code.js first when src/ (or the build) changed since the last build.
  globalSetup: '<rootDir>/test/support/build-if-stale.js',
  reporters: ['default', '<rootDir>/test/support/count-reporter.js'],
};
