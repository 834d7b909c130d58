// The API test bundle: test/api/harness.ts and the real src/api code it imports, into
// test-output/api-harness/Code.js (built from sandbox.test.js's beforeAll).
import { harnessConfig } from '../support/rollup-harness.mjs';

export default harnessConfig({
  input: 'test/api/harness.ts',
  output: 'test-output/api-harness/Code.js',
  tsconfig: 'test/api/tsconfig.harness.json',
});
