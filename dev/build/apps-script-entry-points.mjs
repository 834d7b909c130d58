// Rollup plugin: turns the bundle into one Apps Script file whose only top-level declarations are the entry
// points exported by src/index.ts. The library lives in one closure stored under a Symbol on globalThis (a
// Symbol key is no identifier, so google.script.run and the function picker cannot see it); each entry point
// is a thin forwarder; a custom function's keeps the JSDoc written above it (Sheets' help and autocomplete read
// it), the others' JSDoc stays in src/index.ts for its readers (Apps Script reads it nowhere else).
import { readFileSync } from 'node:fs';
import ts from 'typescript';
import entryPoints from './entry-points.js';
import { entryPointModules, libraryScript, moduleParts } from './lazy-modules.mjs';
import { manifestFor } from './reply-detection.mjs';

const { readEntryPoints } = entryPoints;
export { readEntryPoints };

export const LIBRARY_KEY = 'outreach-addon.library';

/** The layers of src/ besides features/: each is one capability. */
const LAYERS = ['api', 'platform', 'sheets', 'ui'];
const CAPABILITY = new RegExp(
  `/src/(?:(${LAYERS.join('|')})/|features/(?:([\\w-]+)/|(settings)|(?!entry-|job-registry)))`,
);

/**
 * The library's unit of compilation: a capability folder of src/features (sequence, mail, …), or the shared
 * feature helpers (errors, words, clients, inputs, storage), or a layer (api, platform, sheets, ui), or zod.
 * Inside one, rollup joins the modules in one scope (no `require` or `module.` between them); the entry
 * points, their guards and the job registry stay with src/index.ts, above every capability. Its name is
 * also what the code calls it (`platform.readSettings()`).
 */
function capabilityOf(id) {
  if (id.includes('/node_modules/zod/')) return 'zod';
  const m = CAPABILITY.exec(id);
  return m ? m[1] || m[2] || m[3] || 'features' : undefined;
}

/** Where a capability's code comes from: its folder, as the file names it (`features/mail`, `platform`). */
function capabilityPath(name) {
  return [...LAYERS, 'zod', 'features'].includes(name) ? name : `features/${name}`;
}

/** Rollup's output options appsScriptEntryPoints needs: one CommonJS chunk per capability, joined into Code.js. */
export const MODULE_OUTPUT = Object.freeze({
  format: 'cjs',
  manualChunks: capabilityOf,
  chunkFileNames: (chunk) => `${capabilityPath(chunk.name)}.js`,
  entryFileNames: '[name].js',
  esModule: false,
  strict: false,
  generatedCode: { preset: 'es2015', symbols: false },
});

/**
 * Rollup's onwarn for the add-on and the test harnesses: zod's sources carry esbuild-style annotations rollup
 * cannot place, and a harmless internal cycle.
 */
export function onwarnOutsideZod(warning, warn) {
  const inZod = (warning.id ?? warning.ids?.[0] ?? '').includes('node_modules/zod/');
  if (inZod && ['INVALID_ANNOTATION', 'CIRCULAR_DEPENDENCY'].includes(warning.code)) return;
  warn(warning);
}

/**
 * What the local build (dist-local/: tests, playground, bench) may fetch besides the manifest's prefixes:
 * the sandbox on loopback, on any port. Apps Script itself would refuse these (https:// only) and cannot
 * reach this machine anyway, so they never go into dist/, which clasp pushes.
 */
export const LOOPBACK_URL_PREFIXES = ['http://127.0.0.1:*/', 'http://localhost:*/'];

/** appsscript.json's urlFetchWhitelist, or [] when it has none. */
export function manifestAllowlist(manifestPath) {
  const list = JSON.parse(readFileSync(manifestPath, 'utf8')).urlFetchWhitelist;
  return Array.isArray(list) ? list : [];
}

export function forwarderSource(entries) {
  const library = `globalThis[Symbol.for(${JSON.stringify(LIBRARY_KEY)})]`;
  return entries
    .map(({ name, params, jsDoc }) => {
      const doc = /@customfunction\b/.test(jsDoc || '') ? `${jsDoc}\n` : '';
      return `${doc}function ${name}(${params.join(', ')}) {\n\treturn ${library}.${name}.apply(this, arguments);\n}\n`;
    })
    .join('\n');
}

/**
 * @param {{ index: string, urlFetchAllowlist: string[], serviceAddresses: { outreach: string, phone: string } }}
 *   options urlFetchAllowlist becomes the constant URL_FETCH_ALLOWLIST of the library
 *   (src/platform/url-allowlist.ts), serviceAddresses the default addresses SERVICE_ADDRESSES
 *   (src/platform/settings.ts; see service-addresses.mjs)
 */
export function appsScriptEntryPoints({ index, urlFetchAllowlist, serviceAddresses }) {
  if (!Array.isArray(urlFetchAllowlist)) throw new Error('appsScriptEntryPoints: give urlFetchAllowlist');
  if (!serviceAddresses?.outreach || !serviceAddresses?.phone)
    throw new Error('appsScriptEntryPoints: give serviceAddresses { outreach, phone }');
  const constants = { URL_FETCH_ALLOWLIST: urlFetchAllowlist, SERVICE_ADDRESSES: serviceAddresses };
  return {
    name: 'apps-script-entry-points',
    generateBundle(_options, bundle) {
      // Rollup wrote one CommonJS module per module (preserveModules): they become one file, Code.js. Apps
      // Script's V8 runtime does not take every recent syntax (static class fields are a known gap): every
      // module, zod's included, is lowered to ES2019, its comments left out (names and layout are kept: the
      // file stays readable). Each is compiled when an execution first uses it (lazy-modules.mjs); the
      // custom functions' forwarders keep their JSDoc.
      const chunks = Object.values(bundle).filter((file) => file.type === 'chunk');
      for (const chunk of chunks) delete bundle[chunk.fileName];
      const modules = chunks
        .map((chunk) => ({ ...moduleParts(chunk.fileName, chunk.code, tabIndent), isEntry: chunk.isEntry }))
        .sort((a, b) => (a.name < b.name ? -1 : 1));
      const entry = modules.find((m) => m.isEntry);
      const { entries: entryPoints, module: entryModule } = entryPointModules(entry);
      // The entry module is needed only for what it declares itself (the guards of entry-points.ts).
      const library = libraryScript({
        modules: modules.flatMap((m) => (m !== entry ? [m] : entryModule ? [entryModule] : [])),
        entryPoints,
        constants,
        libraryKey: LIBRARY_KEY,
      });
      const forwarders = forwarderSource(readEntryPoints(index));
      const header = '// Built by rollup from src/ (see README). Do not edit: run `npm run build`.\n\n';
      this.emitFile({ type: 'asset', fileName: 'Code.js', source: header + forwarders + '\n' + library });
    },
  };
}

/**
 * Copies the manifest and the HTML files, inlining `<!-- include: file -->` from src/ui. With
 * urlFetchAllowlist, the manifest's urlFetchWhitelist becomes that list (the local build's loopback); with
 * replyDetection 'gmail', it gets the Gmail scope and advanced service (reply-detection.mjs).
 */
export function appsScriptAssets({ manifest, uiDir, urlFetchAllowlist, replyDetection = '' }) {
  return {
    name: 'apps-script-assets',
    async generateBundle() {
      const { readdirSync } = await import('node:fs');
      let source = readFileSync(manifest, 'utf8');
      if (urlFetchAllowlist || replyDetection) {
        let json = JSON.parse(source);
        if (urlFetchAllowlist) json = { ...json, urlFetchWhitelist: urlFetchAllowlist };
        source = `${JSON.stringify(manifestFor(json, replyDetection), null, 2)}\n`;
      }
      this.emitFile({ type: 'asset', fileName: 'appsscript.json', source });
      for (const file of readdirSync(uiDir)) {
        if (!file.endsWith('.html') || file.startsWith('_')) continue;
        const html = readFileSync(`${uiDir}/${file}`, 'utf8').replace(
          /<!-- include: ([\w.-]+) -->/g,
          (_, name) => readFileSync(`${uiDir}/${name}`, 'utf8'),
        );
        this.emitFile({ type: 'asset', fileName: file, source: html });
      }
    },
  };
}

/**
 * TypeScript prints 4-space indents; this writes one tab per level instead (a common, readable style: an
 * editor shows a tab as wide as its reader likes), a twelfth of the file less than 2 spaces a level. A line
 * that starts inside a string, template or regular-expression literal is left as it is (spaces are content
 * there); spaces beyond the last whole level (a continuation line's) stay spaces.
 */
export function tabIndent(code) {
  const source = ts.createSourceFile('Code.js', code, ts.ScriptTarget.Latest, false, ts.ScriptKind.JS);
  const literals = [];
  const visit = (node) => {
    if (ts.isTemplateLiteral(node) || ts.isStringLiteral(node) || ts.isRegularExpressionLiteral(node)) {
      literals.push([node.getStart(source), node.end]);
    } else ts.forEachChild(node, visit);
  };
  visit(source);
  literals.sort((a, b) => a[0] - b[0]);
  let next = 0;
  let offset = 0;
  return code
    .split('\n')
    .map((line) => {
      const start = offset;
      offset += line.length + 1;
      while (next < literals.length && literals[next][1] <= start) next++;
      if (next < literals.length && literals[next][0] < start) return line;
      return line.replace(/^( {4})+/, (spaces) => '\t'.repeat(spaces.length / 4));
    })
    .join('\n');
}
