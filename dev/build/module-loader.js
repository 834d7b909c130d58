'use strict';
/* global MODULES, ENTRY_POINTS, CONSTANTS, LIBRARY_GLOBAL, EXPORTS_MADE, STARTED */
// The loader the build writes into dist/Code.js, below the table of the library's modules (MODULES,
// ENTRY_POINTS, CONSTANTS: lazy-modules.mjs). Apps Script compiles the whole file on every execution, each
// custom-function cell and each poll of a progress dialog included, and V8's cost is the code it parses: a
// module's code (a capability's: features/mail, platform…) is carried in a comment (scanned, never parsed)
// and compiled the first time an execution uses one of its exports. The file names each export once
// (`exports`, separated by spaces, or in ENTRY_POINTS for the entry module's). Nothing here may read a
// service: evaluating the file must touch none.

/** What a module gives its importers from its own declarations: its list, and what the entry points name in it. */
function ownExports(name) {
  const names = MODULES[name].exports.split(' ').filter(Boolean);
  for (const [module, key] of Object.values(ENTRY_POINTS)) {
    if (module === name && !names.includes(key)) names.push(key);
  }
  return names;
}

/** An export's value, as an own property of its module's exports object (over the getter that loaded it). */
function defineExport(exports, key, value) {
  Object.defineProperty(exports, key, { value, writable: true, enumerable: true, configurable: true });
}

/**
 * The exports of a module (loaded or not): what `require` gives its importers. Until the module runs, each
 * export is a getter that loads it, on the object's prototype; the module's values then become the object's
 * own properties, added in one go (turning each getter into a value one by one costs more than compiling).
 */
function moduleExports(name) {
  const made = EXPORTS_MADE[name];
  if (made) return made;
  const module = MODULES[name];
  if (!module) throw new Error(`The add-on's bundle has no module ${name}: rebuild it (npm run build).`);
  const getters = {};
  const exports = (EXPORTS_MADE[name] = Object.create(getters));
  for (const key of [...ownExports(name), ...(module.reexports || '').split(' ').filter(Boolean)]) {
    Object.defineProperty(getters, key, {
      get() {
        loadModule(name);
        if (!Object.prototype.hasOwnProperty.call(exports, key))
          throw new Error(`${name} was used before it defined ${key} (an import cycle between modules?).`);
        return exports[key];
      },
      set(value) {
        defineExport(exports, key, value);
      },
    });
  }
  return exports;
}

/** Compiles and runs a module once (its text is the comment inside its `code` function). */
function loadModule(name) {
  if (STARTED[name]) return;
  STARTED[name] = true;
  const carrier = String(MODULES[name].code);
  const code = carrier.slice(carrier.indexOf('/*') + 2, carrier.lastIndexOf('*/'));
  const keys = ownExports(name);
  const constants = Object.keys(CONSTANTS);
  const run = new Function(
    'exports',
    'require',
    'globalThis',
    ...constants,
    `'use strict';${code}\nreturn [${keys.join(', ')}];\n//# sourceURL=${name}.js\n`,
  );
  const exports = moduleExports(name);
  const values = run(exports, moduleExports, LIBRARY_GLOBAL, ...constants.map((key) => CONSTANTS[key]));
  keys.forEach((key, i) => defineExport(exports, key, values[i]));
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
        return moduleExports(name)[key];
      },
    });
  }
  Object.defineProperty(library, Symbol.for('outreach-addon.modules'), {
    value: Object.freeze({ compiled: () => Object.keys(STARTED), compile: loadModule }),
  });
}

module.exports = { ownExports, defineExport, moduleExports, loadModule, defineEntryPoints };
