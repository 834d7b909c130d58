/** @type {import('jest').Config} */
module.exports = {
  testEnvironment: 'node',
  roots: ['<rootDir>/test'],
  testMatch: ['**/*.test.js', '**/*.test.ts'],
  transform: {
    '^.+\\.ts$': ['ts-jest', { isolatedModules: true, tsconfig: { module: 'commonjs', target: 'ES2020' } }],
  },
  testTimeout: 60000,
  reporters: ['default', '<rootDir>/test/support/count-reporter.js'],
};
