'use strict';
/* global MODULES, ENTRY_POINTS, CONSTANTS, LIBRARY_GLOBAL, EXPORTS_MADE, STARTED */
// The loader the build writes into dist/Code.js, below the table of the library's modules (MODULES,
// ENTRY_POINTS, CONSTANTS: lazy-modules.mjs). Apps Script compiles the whole file on every execution, each
// custom-function cell and each poll of a progress dialog included, and V8's cost is the code it parses: a
// module's code is carried in a comment (scanned, never parsed) and compiled the first time an execution
// uses one of its exports. A module's exports object exists before the module runs: each name its importers
// read (found in their code when they are compiled) is a getter that loads the module, and becomes a plain
// value when the module assigns it. The loader writes those assignments after the module's code, one per
// top-level declaration, so the file states no list of exports. Nothing here may read a service:
// evaluating the file must touch none.

/** The names a module declares at its top level (its exports), `require` bindings left out. */
function topLevelNames(code) {
  const names = [];
  const declaration =
    /^(?:async )?(?:function\*? ?|class |const |let |var )([\w$]+)(?![\w$])(?! = require\()/gm;
  for (const m of code.matchAll(declaration)) names.push(m[1]);
  return names;
}

/** The modules a module's code requires: binding → module (`const platform = require("platform");`). */
function requiredModules(code) {
  const modules = {};
  for (const m of code.matchAll(/^const ([\w$]+) = require\("([^"]+)"\);$/gm)) modules[m[1]] = m[2];
  return modules;
}

/** For each module a module's code requires, the names it reads from it (`platform.readSettings`). */
function namesRead(code) {
  const modules = requiredModules(code);
  const bindings = Object.keys(modules).map((binding) => binding.replace(/\$/g, '\\$'));
  const read = {};
  if (!bindings.length) return read;
  // a binding not itself a member (`a.platform`), a spread (`...platform.x`) is one
  const use = new RegExp(`(?<![\\w$])(?<![^.]\\.)(${bindings.join('|')})\\s*\\.\\s*([\\w$]+)`, 'g');
  for (const m of code.matchAll(use)) (read[modules[m[1]]] = read[modules[m[1]]] || []).push(m[2]);
  return read;
}

/** A module's exports object (loaded or not), with a getter that loads it for each of `names` not there yet. */
function moduleExports(name, names) {
  if (!MODULES[name])
    throw new Error(`The add-on's bundle has no module ${name}: rebuild it (npm run build).`);
  const exports = EXPORTS_MADE[name] || (EXPORTS_MADE[name] = {});
  for (const key of names) {
    if (Object.prototype.hasOwnProperty.call(exports, key)) continue;
    const loadFirst = {
      configurable: true,
      enumerable: true,
      get() {
        loadModule(name);
        const now = Object.getOwnPropertyDescriptor(exports, key);
        if (now.get === loadFirst.get) {
          throw new Error(`${name} was used before it defined ${key} (an import cycle between modules?).`);
        }
        return exports[key];
      },
      set(value) {
        Object.defineProperty(exports, key, { value, writable: true, enumerable: true, configurable: true });
      },
    };
    Object.defineProperty(exports, key, loadFirst);
  }
  return exports;
}

/** Compiles and runs a module once (its text is the comment inside its function in MODULES). */
function loadModule(name) {
  if (STARTED[name]) return;
  STARTED[name] = true;
  const carrier = String(MODULES[name]);
  const code = carrier.slice(carrier.indexOf('/*') + 2, carrier.lastIndexOf('*/'));
  const read = namesRead(code);
  // what the module exports under another name (`exports.keyOf = keyOf$1;`) it assigns itself
  const own = new Set(Array.from(code.matchAll(/^exports\.([\w$]+) = /gm), (m) => m[1]));
  const assign = topLevelNames(code)
    .filter((key) => !own.has(key))
    .map((key) => `exports.${key} = ${key};`)
    .join('\n');
  const constants = Object.keys(CONSTANTS);
  const run = new Function(
    'exports',
    'require',
    'globalThis',
    ...constants,
    `'use strict';${code}\n${assign}\n//# sourceURL=${name}.js\n`,
  );
  const require = (module) => moduleExports(module, read[module] || []);
  run(moduleExports(name, []), require, LIBRARY_GLOBAL, ...constants.map((key) => CONSTANTS[key]));
}

/**
 * The library object the forwarders call: each entry point is read from its module when first called. Under
 * Symbol.for('outreach-addon.modules'), `compiled()`, the modules this execution compiled so far, and
 * `compile(name)` (the tests and the benchmark: what an execution compiles, and what that costs; a Symbol key
 * is no name google.script.run or the function picker can see).
 */
function defineEntryPoints(library) {
  for (const [entry, [name, key]] of Object.entries(ENTRY_POINTS)) {
    Object.defineProperty(library, entry, {
      enumerable: true,
      get() {
        return moduleExports(name, [key])[key];
      },
    });
  }
  Object.defineProperty(library, Symbol.for('outreach-addon.modules'), {
    value: Object.freeze({ compiled: () => Object.keys(STARTED), compile: loadModule }),
  });
}

module.exports = { topLevelNames, requiredModules, namesRead, moduleExports, loadModule, defineEntryPoints };
