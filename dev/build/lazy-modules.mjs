// The library as Apps Script gets it: one module of src/ (or of zod) per entry of MODULES, its code inside a
// comment, compiled by module-loader.js the first time an execution uses it. V8 scans a comment several times
// faster than it parses code, and an execution compiles only the modules it uses (the benchmark measures
// both). The code stays as rollup wrote it for CommonJS, comments left out, one tab a level: readable where
// Apps Script shows the file, and a stack trace names the module (sourceURL) and the line in it.
import path from 'node:path';
import ts from 'typescript';
import loader from './module-loader.js';
import { topLevelArrowsAsFunctions } from './top-level-arrows.mjs';

/** What ends the comment that carries a module's code: the build refuses a module that holds it. */
const COMMENT_END = '*/';

export class ModuleTextError extends Error {}

/**
 * The code with each character beyond Latin-1 written as its escape (`…` as `\\u2026`, the same string,
 * regular expression or name): V8 scans a source of one-byte characters much faster than one that holds a
 * single wider character, and Apps Script scans the whole file on every execution.
 */
export function oneByte(code) {
  return code.replace(/[\u0100-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/**
 * TypeScript lowers `a?.b` and `a ?? b` (ES2020) to `a === null || a === void 0 ? …` (and `(_a = f()) === null ||
 * _a === void 0`, `!== null && … !== void 0`): `a == null` means the same, in a third of the characters.
 */
export function looseNullChecks(code) {
  return code
    .replace(
      /(?<![\w$.])([\w$.]+) (===|!==) null (\|\||&&) \1 \2 void 0/g,
      (_, value, op) => `${value} ${op.slice(0, -1)} null`,
    )
    .replace(/\) (===|!==) null (\|\||&&) _[a-z]\d* \1 void 0/g, (_, op) => `) ${op.slice(0, -1)} null`);
}

/**
 * A module for its comment: its code (ES2019, no comments, requires by module name, one tab a level) without
 * rollup's `exports.NAME = NAME;` lines, which the loader writes back from `exports` when it compiles the
 * module; `reexports`: what the code exports itself (another module's export, or under another name).
 */
export function moduleParts(name, code, tabIndent) {
  let out = ts.transpileModule(code, {
    compilerOptions: {
      target: ts.ScriptTarget.ES2019,
      module: ts.ModuleKind.None,
      useDefineForClassFields: false,
      removeComments: true,
    },
  }).outputText;
  out = looseNullChecks(out);
  out = out.replace(/\brequire\('(\.{1,2}\/[^']+)'\)/g, (_, spec) => {
    const target = path.posix.normalize(path.posix.join(path.posix.dirname(name), spec));
    return `require(${JSON.stringify(moduleName(target))})`;
  });
  // A bare `require("m");` (rollup's order between chunks) loads nothing here: the loader loads on first use.
  out = out.replace(/^require\("[^"]+"\);\n?/gm, '');
  const exports = [];
  const reexports = [];
  out = out.replace(/^exports\.([\w$]+) = ([\w$.]+);\n?/gm, (line, key, local) => {
    (key === local ? exports : reexports).push(key);
    return key === local ? '' : line;
  });
  out = oneByte(tabIndent(topLevelArrowsAsFunctions(out)).trim());
  const at = out.indexOf(COMMENT_END);
  if (at >= 0) {
    const line = out.slice(0, at).split('\n').length;
    throw new ModuleTextError(
      `${name}, line ${line} of its compiled code, holds "${COMMENT_END}", which would end the comment that ` +
        `carries the module in dist/Code.js: write it another way (a regular expression's \\s*/ as \\s{0,}/).`,
    );
  }
  return { name: moduleName(name), code: out, exports, reexports };
}

/** A module's name in the library: its path from src/ (or node_modules/), without `.js`. */
export function moduleName(fileName) {
  return fileName.replace(/\.js$/, '');
}

/**
 * The entry points of the entry module (src/index.ts, as moduleParts gives it): NAME → [module, KEY], read
 * from its `exports.NAME = m.KEY;` (KEY of the module m is required from) and `exports.NAME = KEY;` (a
 * function it declares) lines, and its exports; `module`: the entry module without those lines and the
 * requires only they used (running it loads nothing else), or null when no entry point is its own.
 */
export function entryPointModules({ name, code, exports }) {
  const modules = {};
  for (const m of code.matchAll(/^const ([\w$]+) = require\("([^"]+)"\);$/gm)) modules[m[1]] = m[2];
  const entries = Object.fromEntries(exports.map((key) => [key, [name, key]]));
  let rest = code.replace(/^exports\.([\w$]+) = (?:([\w$]+)\.)?([\w$]+);\n?/gm, (_, entry, binding, key) => {
    if (binding && !modules[binding])
      throw new ModuleTextError(`${name}: cannot tell where the entry point ${entry} comes from`);
    entries[entry] = [binding ? modules[binding] : name, key];
    return '';
  });
  for (const binding of Object.keys(modules)) {
    // a read of the module: `binding.x` or `...binding.x`, not `other.binding.x`
    const read = new RegExp(`(?<![\\w$])(?<![^.]\\.)${binding.replace(/\$/g, '\\$')}\\.`);
    if (!read.test(rest)) rest = rest.replace(`const ${binding} = require("${modules[binding]}");\n`, '');
  }
  // the loader reads what the entry points name in it from ENTRY_POINTS
  const needed = Object.values(entries).some(([module]) => module === name);
  return { entries, module: needed ? { name, code: rest.trim(), exports: [], reexports: [] } : null };
}

/** The library closure: the constants, the modules in their comments, the entry points, the loader. */
export function libraryScript({ modules, entryPoints, constants, libraryKey }) {
  const table = modules
    .map(({ name, exports, reexports, code }) => {
      const more = reexports.length ? `\n\treexports: ${JSON.stringify(reexports.join(' '))},` : '';
      const head = `${JSON.stringify(name)}: {\n\texports: ${JSON.stringify(exports.join(' '))},${more}`;
      return `${head}\n\tcode: function () {/*\n${code}\n*/},\n},`;
    })
    .join('\n');
  const entries = Object.entries(entryPoints)
    .map(([entry, target]) => `\t${entry}: ${JSON.stringify(target)},`)
    .join('\n');
  const constantLines = Object.entries(constants)
    .map(([key, value]) => `\t${key}: Object.freeze(${JSON.stringify(value)}),`)
    .join('\n');
  return [
    `(function (library, LIBRARY_GLOBAL) {`,
    `'use strict';`,
    `const CONSTANTS = {\n${constantLines}\n};`,
    `const MODULES = {\n${table}\n};`,
    `const ENTRY_POINTS = {\n${entries}\n};`,
    `const EXPORTS_MADE = Object.create(null);`,
    `const STARTED = Object.create(null);`,
    String(loader.ownExports),
    String(loader.defineExport),
    String(loader.moduleExports),
    String(loader.loadModule),
    String(loader.defineEntryPoints),
    `defineEntryPoints(library);`,
    // The closure gets its own globalThis (inheriting the real one), so what a library writes there —
    // zod's __zod_globalConfig — stays out of the script's global namespace.
    `})(globalThis[Symbol.for(${JSON.stringify(libraryKey)})] = {}, Object.create(globalThis));`,
    '',
  ].join('\n');
}
