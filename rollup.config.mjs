import resolve from '@rollup/plugin-node-resolve';
import typescript from '@rollup/plugin-typescript';
import {
  appsScriptAssets,
  appsScriptEntryPoints,
  appsScriptLibrary,
  lowerDependencies,
  LOOPBACK_URL_PREFIXES,
  manifestAllowlist,
  onwarnOutsideZod,
  SCRIPT_OUTPUT,
} from './dev/build/apps-script-entry-points.mjs';
import { ServiceAddressError, serviceAddresses } from './dev/build/service-addresses.mjs';
import {
  ReplyDetectionError,
  replyDetectionConstant,
  replyDetectionOf,
} from './dev/build/reply-detection.mjs';

const MANIFEST = 'appsscript.json';
// src/ imports its modules without an extension: `./ui/menu` is ./ui/menu.ts, `./features` its index.ts.
const TS_FIRST = ['.ts', '.mjs', '.js', '.json'];
const INDEX = 'src/index.ts';
// OUTREACH_BASE_URL and PHONE_BASE_URL when set (https:// only, else the build stops), else the example hosts.
// REPLY_DETECTION=gmail adds the Gmail scope and advanced service (dev/build/reply-detection.mjs).
const manifestList = manifestAllowlist(MANIFEST);
const { addresses, allowlist: deployed } = orStop(() => serviceAddresses(process.env, manifestList));
const replyDetection = orStop(() => replyDetectionOf(process.env));
function orStop(read) {
  try {
    return read();
  } catch (error) {
    if (!(error instanceof ServiceAddressError || error instanceof ReplyDetectionError)) throw error;
    console.error(`The build stopped: ${error.message}`); // what to write instead, without a stack trace
    process.exit(1);
  }
}
const asWritten = JSON.stringify(deployed) === JSON.stringify(manifestList);

// Three outputs that differ in the URL allowlist (Settings and the API clients refuse any other address, as
// Apps Script does) and in reply detection: dist/ is what clasp pushes, with the https:// prefixes of the
// service addresses; dist-local/ adds the loopback sandbox, for the tests, the playground and the benchmark;
// dist-local-gmail/ is dist-local/ with reply detection from Gmail whatever REPLY_DETECTION says (the tests of
// reply detection and the playground run it). `written`: the manifest's list when it differs from
// appsscript.json's (undefined: copied as written). Reply detection is fixed before tree-shaking
// (replyDetectionConstant), so the outputs of one value share one rollup build.
const local = [...deployed, ...LOOPBACK_URL_PREFIXES];
const flavours = [
  { dir: 'dist', allowlist: deployed, written: asWritten ? undefined : deployed, replyDetection },
  { dir: 'dist-local', allowlist: local, written: local, replyDetection },
  { dir: 'dist-local-gmail', allowlist: local, written: local, replyDetection: 'gmail' },
];

// One script, Code.js: the entry points' forwarders and the library's closure (dev/build/apps-script-entry-points.mjs).
const output = ({ dir, allowlist, written, replyDetection: detection }) => ({
  ...SCRIPT_OUTPUT,
  dir,
  plugins: [
    appsScriptEntryPoints({ index: INDEX, urlFetchAllowlist: allowlist, serviceAddresses: addresses }),
    appsScriptAssets({
      manifest: MANIFEST,
      uiDir: 'src/ui',
      urlFetchAllowlist: written,
      replyDetection: detection,
    }),
  ],
});

const build = (detection) => ({
  input: INDEX,
  output: flavours.filter((f) => f.replyDetection === detection).map(output),
  treeshake: { moduleSideEffects: false },
  onwarn: onwarnOutsideZod,
  plugins: [
    appsScriptLibrary(),
    resolve({ browser: true, extensions: TS_FIRST }),
    // src/'s comments stay in src/: Apps Script parses the whole file on every execution (a custom function's
    // JSDoc goes above its forwarder). The types are checked once, by `tsc --noEmit`, not by each build.
    typescript({ tsconfig: 'tsconfig.json', compilerOptions: { removeComments: true, noCheck: true } }),
    lowerDependencies('tsconfig.json'),
    replyDetectionConstant(detection),
  ],
});

export default [...new Set(flavours.map((f) => f.replyDetection))].map(build);
