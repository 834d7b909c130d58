// The platform test bundle: test/platform/harness.ts and the src/platform code it imports, into
// test-output/platform-harness/Code.js (built from the tests' beforeAll).
import { harnessConfig } from '../support/rollup-harness.mjs';

export default harnessConfig({
  input: 'test/platform/harness.ts',
  output: 'test-output/platform-harness/Code.js',
  tsconfig: 'test/platform/tsconfig.harness.json',
});
