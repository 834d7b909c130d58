// Rollup plugins that make dist/Code.js one plain Apps Script file: rollup's own output, one closure holding the
// library, and above it a top-level forwarder per entry point exported by src/index.ts (the only top-level
// declarations). The library object the closure fills is stored under a Symbol on globalThis (a Symbol key is
// no identifier, so google.script.run and the function picker cannot see it); a custom function's forwarder
// keeps the JSDoc written above its export (Sheets' help and autocomplete read it), the others' JSDoc stays in
// src/index.ts for its readers (Apps Script reads it nowhere else).
import { readFileSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import entryPoints from './entry-points.js';
import { manifestFor } from './reply-detection.mjs';

const { readEntryPoints } = entryPoints;

/** The library object, as the forwarders and the closure's call name it. */
const LIBRARY = 'globalThis[Symbol.for("outreach-addon.library")]';

/** The module rollup starts from: it gives the library object (the closure's `library`) every export of the index. */
const ENTRY = '\0apps-script-entry';

/**
 * Rollup's output options for an Apps Script file: plain code with no import or export (the entry module
 * exports nothing), which appsScriptEntryPoints wraps in the library's closure.
 */
export const SCRIPT_OUTPUT = Object.freeze({
  format: 'es',
  entryFileNames: 'Code.js',
  generatedCode: { preset: 'es2015', symbols: false },
  indent: '    ', // what rollup writes itself (the entry points' object), as TypeScript indents (halveIndentation)
});

/**
 * Input plugin: the build's input (src/index.ts, or a test harness) becomes what the entry module hands to the
 * library object; rollup keeps every export it names (tree-shaking cannot drop an entry point).
 */
export function appsScriptLibrary() {
  let index;
  return {
    name: 'apps-script-library',
    options(options) {
      if (typeof options.input !== 'string') throw new Error('appsScriptLibrary: give one input file');
      index = path.resolve(options.input);
      return { ...options, input: ENTRY };
    },
    resolveId: (id) => (id === ENTRY ? ENTRY : null),
    load(id) {
      if (id !== ENTRY) return null;
      const code = `import * as entryPoints from ${JSON.stringify(index)};\nObject.assign(library, entryPoints);\n`;
      return { code, moduleSideEffects: true };
    },
  };
}

/**
 * Input plugin: the dependencies (zod), published as modern JavaScript, lowered to tsconfig.json's target, ES2019
 * (Apps Script's V8 does not take every recent syntax), without their comments but the tree-shaking marks
 * (marksOnly). src/ is @rollup/plugin-typescript's.
 */
export function lowerDependencies(tsconfig = 'tsconfig.json') {
  const { config } = ts.readConfigFile(tsconfig, ts.sys.readFile);
  const { options } = ts.parseJsonConfigFileContent(config, ts.sys, path.dirname(tsconfig));
  const compilerOptions = {
    target: options.target,
    module: ts.ModuleKind.ESNext,
    useDefineForClassFields: false,
  };
  return {
    name: 'lower-dependencies',
    transform(code, id) {
      if (!id.includes('/node_modules/') || !/\.m?js$/.test(id)) return null;
      return {
        code: ts.transpileModule(marksOnly(code), { fileName: id, compilerOptions }).outputText,
        map: null,
      };
    },
  };
}

/** The marks rollup reads: a call without side effects, a function whose calls have none. */
const ANNOTATION = /^\/[*/]\s*[@#]__(PURE|NO_SIDE_EFFECTS)__\s*(\*\/)?$/;

/**
 * A dependency's source without its comments but the `/*@__PURE__*\/` and `@__NO_SIDE_EFFECTS__` marks, without
 * which rollup keeps twice as much of zod. The comments are those TypeScript's parser finds before each token;
 * each becomes a line break where it held one (a line break can end a statement), else a space.
 */
function marksOnly(text) {
  const file = ts.createSourceFile('dependency.js', text, ts.ScriptTarget.Latest, false, ts.ScriptKind.JS);
  const comments = new Map();
  const add = (ranges) => ranges?.forEach((range) => comments.set(range.pos, range));
  const visit = (node) => {
    if (node.kind >= ts.SyntaxKind.FirstJSDocNode && node.kind <= ts.SyntaxKind.LastJSDocNode) return;
    if (node.kind >= ts.SyntaxKind.FirstNode) node.getChildren(file).forEach(visit);
    else {
      add(ts.getTrailingCommentRanges(text, node.pos));
      add(ts.getLeadingCommentRanges(text, node.pos));
    }
  };
  visit(file);
  let kept = '';
  let from = 0;
  for (const { pos, end } of [...comments.values()].sort((a, b) => a.pos - b.pos)) {
    const comment = text.slice(pos, end);
    if (ANNOTATION.test(comment)) continue;
    kept += text.slice(from, pos) + (comment.includes('\n') ? '\n' : ' ');
    from = end;
  }
  return kept + text.slice(from);
}

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

/** A top-level function per entry point that calls the library's; a custom function's keeps its JSDoc. */
function forwarderSource(entries) {
  return entries
    .map(({ name, params, jsDoc }) => {
      const doc = /@customfunction\b/.test(jsDoc || '') ? `${jsDoc}\n` : '';
      return `${doc}function ${name}(${params.join(', ')}) {\n\treturn ${LIBRARY}.${name}.apply(this, arguments);\n}\n`;
    })
    .join('\n');
}

/**
 * Output plugin: the forwarders, then rollup's code inside the library's closure, which starts with the build
 * constants. The closure gets its own globalThis (inheriting the real one), so what a library writes there
 * (zod's __zod_globalConfig) stays out of the script's global namespace.
 *
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
    banner: () =>
      [
        '// Built by rollup from src/ (see docs/development.md). Do not edit: run `npm run build`.\n',
        forwarderSource(readEntryPoints(index)),
        '(function (library, globalThis) {',
        "'use strict';",
        ...Object.entries(constants).map(
          ([key, value]) => `const ${key} = Object.freeze(${JSON.stringify(value)});`,
        ),
      ].join('\n'),
    footer: `})(${LIBRARY} = {}, Object.create(globalThis));`,
    renderChunk: (code) => ({ code: halveIndentation(code), map: null }),
  };
}

/**
 * TypeScript indents its output by four spaces a level, src/ is written with two: the file keeps every line and
 * every token as generated, indented by half (about 7 % of what Apps Script parses on every execution). A line
 * that starts inside a string or template literal, where the spaces are text, stays as it is.
 */
export function halveIndentation(code) {
  const file = ts.createSourceFile('Code.js', code, ts.ScriptTarget.Latest, false, ts.ScriptKind.JS);
  const literals = [];
  const visit = (node) => {
    if (ts.isTemplateLiteral(node) || ts.isStringLiteral(node)) literals.push(node);
    else ts.forEachChild(node, visit);
  };
  visit(file);
  let next = 0; // the first literal that does not end before this line
  let lineStart = 0;
  const lines = code.split('\n').map((line) => {
    const start = lineStart;
    lineStart += line.length + 1;
    while (next < literals.length && literals[next].end <= start) next++;
    if (next < literals.length && literals[next].getStart(file) < start) return line;
    let spaces = 0;
    while (line[spaces] === ' ') spaces++;
    return spaces % 2 ? line : line.slice(spaces / 2);
  });
  return lines.join('\n');
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
