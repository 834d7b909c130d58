import typescript from '@rollup/plugin-typescript';
import resolve from '@rollup/plugin-node-resolve';
import {
  appsScriptAssets,
  appsScriptEntryPoints,
  LOOPBACK_URL_PREFIXES,
  manifestAllowlist,
} from './dev/build/apps-script-entry-points.mjs';
import { ServiceAddressError, serviceAddresses } from './dev/build/service-addresses.mjs';

const MANIFEST = 'appsscript.json';
const INDEX = 'src/index.ts';
// OUTREACH_BASE_URL and PHONE_BASE_URL when set (https:// only, else the build stops), else the example hosts.
const manifestList = manifestAllowlist(MANIFEST);
const { addresses, allowlist: deployed } = addressesOrStop();
function addressesOrStop() {
  try {
    return serviceAddresses(process.env, manifestList);
  } catch (error) {
    if (!(error instanceof ServiceAddressError)) throw error;
    console.error(`The build stopped: ${error.message}`); // what to write instead, without a stack trace
    process.exit(1);
  }
}
const asWritten = JSON.stringify(deployed) === JSON.stringify(manifestList);

// One build, two outputs that differ only in the URL allowlist (Settings and the API clients refuse any
// other address, as Apps Script does): dist/ is what clasp pushes, with the https:// prefixes of the
// service addresses; dist-local/ adds the loopback sandbox, for the tests, the playground and the benchmark.
// `written`: the manifest's list when it differs from appsscript.json's (undefined: copied as written).
const local = [...deployed, ...LOOPBACK_URL_PREFIXES];
const flavours = [
  { dir: 'dist', allowlist: deployed, written: asWritten ? undefined : deployed },
  { dir: 'dist-local', allowlist: local, written: local },
];

export default {
  input: INDEX,
  output: flavours.map(({ dir, allowlist, written }) => ({
    file: `${dir}/Code.js`,
    format: 'cjs',
    esModule: false,
    strict: false,
    generatedCode: 'es2015',
    plugins: [
      appsScriptEntryPoints({ index: INDEX, urlFetchAllowlist: allowlist, serviceAddresses: addresses }),
      appsScriptAssets({
        manifest: MANIFEST,
        uiDir: 'src/ui',
        urlFetchAllowlist: written,
      }),
    ],
  })),
  treeshake: { moduleSideEffects: false },
  // zod's sources carry esbuild-style annotations rollup cannot place, and a harmless internal cycle.
  onwarn(warning, warn) {
    const inZod = (warning.id ?? warning.ids?.[0] ?? '').includes('node_modules/zod/');
    if (inZod && ['INVALID_ANNOTATION', 'CIRCULAR_DEPENDENCY'].includes(warning.code)) return;
    warn(warning);
  },
  plugins: [resolve({ browser: true }), typescript({ tsconfig: './tsconfig.json', noEmitOnError: true })],
};
