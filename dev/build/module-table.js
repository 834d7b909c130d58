'use strict';
// Reads what lazy-modules.mjs writes into dist/Code.js, for the tests and the benchmark: the table of modules
// (the code each one carries in its comment) and, in a realm that evaluated the file, the loader.

/** One entry of MODULES: its name, and its code inside `function () {/* … *\/}`. */
const MODULE_ENTRY = /^("[^"\n]+"): function \(\) \{\/\*\n([\s\S]*?)\n\*\/\},$/gm;

/** The library's modules: name → { code }. */
function readModules(code) {
  const found = {};
  for (const m of code.matchAll(MODULE_ENTRY)) found[JSON.parse(m[1])] = { code: m[2] };
  return found;
}

/** The loader's diagnostics (module-loader.js): `compiled()` and `compile(name)`, as an expression of the realm. */
const LOADER = 'globalThis[Symbol.for("outreach-addon.library")][Symbol.for("outreach-addon.modules")]';

/** The modules an execution compiled so far, read from the realm it runs in (an emulator Realm). */
function compiledModules(realm) {
  return Array.from(realm.evaluate(`${LOADER}.compiled()`));
}

module.exports = { readModules, compiledModules, LOADER };
