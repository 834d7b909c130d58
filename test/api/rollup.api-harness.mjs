// The API test bundle: test/api/harness.ts and the real src/api code it imports, built with the same
// plugins (and the same ES2019 lowering and entry-point forwarders) as dist/Code.js, into
// test-output/api-harness/Code.js. Built by test/api/build-harness.js (from sandbox.test.js's beforeAll).
import typescript from '@rollup/plugin-typescript';
import resolve from '@rollup/plugin-node-resolve';
import {
  appsScriptAssets,
  appsScriptEntryPoints,
  LOOPBACK_URL_PREFIXES,
  manifestAllowlist,
} from '../../dev/build/apps-script-entry-points.mjs';

export const HARNESS_INPUT = 'test/api/harness.ts';
export const HARNESS_OUTPUT = 'test-output/api-harness/Code.js';
// As in dist-local/: the manifest's prefixes and the loopback sandbox.
const allowlist = [...manifestAllowlist('appsscript.json'), ...LOOPBACK_URL_PREFIXES];

export default {
  input: HARNESS_INPUT,
  output: {
    file: HARNESS_OUTPUT,
    format: 'cjs',
    esModule: false,
    strict: false,
    generatedCode: 'es2015',
  },
  treeshake: { moduleSideEffects: false },
  plugins: [
    resolve({ browser: true }),
    // The project's compiler options; the program holds only the harness and what it imports, so work in
    // progress elsewhere in src/ cannot break this bundle.
    typescript({ tsconfig: 'test/api/tsconfig.harness.json', noEmitOnError: true }),
    appsScriptEntryPoints({ index: HARNESS_INPUT, urlFetchAllowlist: allowlist }),
    appsScriptAssets({ manifest: 'appsscript.json', uiDir: 'test/api', urlFetchAllowlist: allowlist }),
  ],
};
