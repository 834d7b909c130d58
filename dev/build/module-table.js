'use strict';
// Reads what lazy-modules.mjs writes into dist/Code.js, for the tests and the benchmark: the table of modules
// (each one's exports and the code carried in its comment) and, in a realm that evaluated the file, the loader.

/** One entry of MODULES: its name, exports, optional reexports, and the code inside its `code` function. */
const MODULE_ENTRY =
  /^("[^"\n]+"): \{\n\texports: (".*"),\n(?:\treexports: (".*"),\n)?\tcode: function \(\) \{\/\*\n([\s\S]*?)\n\*\/\},\n\},$/gm;

/** The library's modules: name → { exports, reexports, code } (the lists as arrays of names). */
function readModules(code) {
  const names = (list) =>
    JSON.parse(list || '""')
      .split(' ')
      .filter(Boolean);
  const found = {};
  for (const m of code.matchAll(MODULE_ENTRY)) {
    found[JSON.parse(m[1])] = { exports: names(m[2]), reexports: names(m[3]), code: m[4] };
  }
  return found;
}

/** The loader's diagnostics (module-loader.js): `compiled()` and `compile(name)`, as an expression of the realm. */
const LOADER = 'globalThis[Symbol.for("outreach-addon.library")][Symbol.for("outreach-addon.modules")]';

/** The modules an execution compiled so far, read from the realm it runs in (an emulator Realm). */
function compiledModules(realm) {
  return Array.from(realm.evaluate(`${LOADER}.compiled()`));
}

module.exports = { readModules, compiledModules, LOADER };
