import typescript from '@rollup/plugin-typescript';
import resolve from '@rollup/plugin-node-resolve';
import {
  appsScriptAssets,
  appsScriptEntryPoints,
  LOOPBACK_URL_PREFIXES,
  manifestAllowlist,
} from './dev/build/apps-script-entry-points.mjs';

const MANIFEST = 'appsscript.json';
const INDEX = 'src/index.ts';
const deployed = manifestAllowlist(MANIFEST);

// One build, two outputs that differ only in the URL allowlist (Settings and the API clients refuse any
// other address, as Apps Script does): dist/ is what clasp pushes, with the manifest's https:// prefixes;
// dist-local/ adds the loopback sandbox, for the tests, the playground and the benchmark.
const flavours = [
  { dir: 'dist', allowlist: deployed },
  { dir: 'dist-local', allowlist: [...deployed, ...LOOPBACK_URL_PREFIXES] },
];

export default {
  input: INDEX,
  output: flavours.map(({ dir, allowlist }) => ({
    file: `${dir}/Code.js`,
    format: 'cjs',
    esModule: false,
    strict: false,
    generatedCode: 'es2015',
    plugins: [
      appsScriptEntryPoints({ index: INDEX, urlFetchAllowlist: allowlist }),
      appsScriptAssets({
        manifest: MANIFEST,
        uiDir: 'src/ui',
        urlFetchAllowlist: allowlist === deployed ? undefined : allowlist,
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
