// Test bundles: a harness module (thin functions over real src/ code) built with the same plugins, ES2019
// lowering and entry-point forwarders as dist/Code.js, so the code under test runs in the Apps Script
// emulator exactly as it ships. Each harness has a rollup config that calls harnessConfig(); tests build
// it with buildHarness() (test/support/harness.js).
import resolve from '@rollup/plugin-node-resolve';
import typescript from '@rollup/plugin-typescript';
import {
  appsScriptAssets,
  appsScriptEntryPoints,
  appsScriptLibrary,
  LOOPBACK_URL_PREFIXES,
  lowerDependencies,
  manifestAllowlist,
  onwarnOutsideZod,
  SCRIPT_OUTPUT,
} from '../../dev/build/apps-script-entry-points.mjs';
import { serviceAddresses } from '../../dev/build/service-addresses.mjs';

// As in dist-local/: the service addresses' prefixes and the loopback sandbox.
const { addresses, allowlist } = serviceAddresses(process.env, manifestAllowlist('appsscript.json'));
const ALLOWLIST = [...allowlist, ...LOOPBACK_URL_PREFIXES];

/**
 * @param {{ input: string, output: string, tsconfig: string }} options The harness module, the bundle to
 *   write, and a tsconfig whose program holds only the harness and what it imports (so work in progress
 *   elsewhere in src/ cannot break the bundle).
 */
export function harnessConfig({ input, output, tsconfig }) {
  return {
    input,
    output: { ...SCRIPT_OUTPUT, dir: output.replace(/\/Code\.js$/, '') },
    treeshake: { moduleSideEffects: false },
    onwarn: onwarnOutsideZod,
    plugins: [
      appsScriptLibrary(),
      resolve({ browser: true, extensions: ['.ts', '.mjs', '.js', '.json'] }),
      typescript({ tsconfig, noEmitOnError: true, compilerOptions: { removeComments: true } }),
      lowerDependencies(tsconfig),
      appsScriptEntryPoints({ index: input, urlFetchAllowlist: ALLOWLIST, serviceAddresses: addresses }),
      appsScriptAssets({
        manifest: 'appsscript.json',
        uiDir: input.replace(/\/[^/]+$/, ''),
        urlFetchAllowlist: ALLOWLIST,
      }),
    ],
  };
}
