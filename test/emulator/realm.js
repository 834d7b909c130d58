'use strict';
// A fresh node:vm context per execution, as Apps Script evaluates the project again for every execution.
// Only ECMAScript built-ins plus the Apps Script globals the emulator installs; `Date` reads the virtual
// clock. Values crossing the boundary are copied into the context's realm (so `x instanceof Date` and
// `instanceof Array` hold inside the script) and back out (so tests get plain main-realm values).
const vm = require('node:vm');
const { EnumValue } = require('./errors');

const BOOTSTRAP = new vm.Script(
  `(function (nowFn) {
  'use strict';
  const RealDate = Date;
  function VirtualDate(...args) {
    if (!new.target) return new RealDate(nowFn()).toString();
    if (args.length === 0) return Reflect.construct(RealDate, [nowFn()], new.target);
    return Reflect.construct(RealDate, args, new.target);
  }
  Object.setPrototypeOf(VirtualDate, RealDate);
  VirtualDate.prototype = RealDate.prototype;
  Object.defineProperty(VirtualDate, 'name', { value: 'Date' });
  Object.defineProperty(VirtualDate, 'length', { value: 7 });
  Object.defineProperty(RealDate.prototype, 'constructor', { value: VirtualDate, writable: true, configurable: true });
  VirtualDate.now = function now() { return nowFn(); };
  VirtualDate.UTC = RealDate.UTC;
  VirtualDate.parse = RealDate.parse;
  Object.defineProperty(globalThis, 'Date', { value: VirtualDate, writable: true, configurable: true, enumerable: false });
  delete globalThis.console;
  return { Array, Object, Date: VirtualDate, Error, TypeError, JSON, Function };
})`,
  { filename: 'apps-script-emulator/bootstrap.js' },
);

const CALL = new vm.Script(
  `(function (c) { delete globalThis.__emulatorCall__; return c.fn.apply(undefined, c.args); })(globalThis.__emulatorCall__)`,
  { filename: 'apps-script-emulator/call.js' },
);

// A script's top-level `const` lives in the context's script scope, which V8 reads without the interceptor:
// bound there, every global the script reads (built-ins and services) costs a local look-up. Names the
// language forbids to bind (`eval`, non-configurable ones such as `undefined`) stay global.
const NAMES_OF_GLOBALS = new vm.Script(
  `Object.getOwnPropertyNames(globalThis).filter((name) => {
    const d = Object.getOwnPropertyDescriptor(globalThis, name);
    return d.configurable && 'value' in d && /^[A-Za-z_$][\\w$]*$/.test(name) && name !== 'eval';
  })`,
  { filename: 'apps-script-emulator/globals.js' },
);
const bindingScripts = new Map();
function bindingScript(names) {
  const key = names.join(',');
  if (!bindingScripts.has(key)) {
    const source = `const ${names.map((name) => `${name} = this.${name}`).join(', ')};`;
    bindingScripts.set(key, new vm.Script(source, { filename: 'apps-script-emulator/bindings.js' }));
  }
  return bindingScripts.get(key);
}

const isDate = (v) => Object.prototype.toString.call(v) === '[object Date]';

function isPlainObject(v) {
  if (v === null || typeof v !== 'object') return false;
  const proto = Object.getPrototypeOf(v);
  return proto === null || Object.getPrototypeOf(proto) === null;
}

class Realm {
  /** @param {() => number} now the virtual clock */
  constructor(now, { realTimeoutMs = 60000 } = {}) {
    // An ordinary global object, as V8 gives a script: a contextified one answers every global look-up (each
    // `Math.imul` in a loop) through an interceptor, about 20 times slower. Older Node versions lack the option.
    const ordinary = vm.constants && vm.constants.DONT_CONTEXTIFY;
    this.context = vm.createContext(ordinary || {}, {
      name: 'Apps Script execution',
      microtaskMode: 'afterEvaluate',
      codeGeneration: { strings: true, wasm: false },
    });
    this.sandbox = this.context;
    this.realTimeoutMs = realTimeoutMs;
    this.intrinsics = BOOTSTRAP.runInContext(this.context)(() => now());
  }

  /** Defines a global (non-enumerable, like the built-in services). */
  define(name, value) {
    Object.defineProperty(this.sandbox, name, {
      value,
      writable: true,
      configurable: true,
      enumerable: false,
    });
  }

  run(script) {
    return script.runInContext(this.context, { timeout: this.realTimeoutMs, displayErrors: false });
  }

  /**
   * Binds every global defined so far (the built-ins and the services) as a top-level constant of the
   * context, before the project's code runs: same values, read at local speed (see NAMES_OF_GLOBALS).
   */
  bindGlobals() {
    const names = NAMES_OF_GLOBALS.runInContext(this.context).filter((name) => name !== '__emulatorCall__');
    this.run(bindingScript(names));
  }

  evaluate(source, filename = 'apps-script-emulator/eval.js') {
    return this.run(new vm.Script(source, { filename }));
  }

  call(fn, args) {
    this.define('__emulatorCall__', { fn, args });
    return this.run(CALL);
  }

  /** Copies a main-realm value (arrays, plain objects, Dates) into the context. Service objects pass as-is. */
  in(v) {
    if (v === null || typeof v !== 'object') return v;
    if (v instanceof EnumValue) return v;
    if (isDate(v)) return new this.intrinsics.Date(v.getTime());
    if (Array.isArray(v)) {
      // A loop, not Array.from with a callback: getValues() of a long list copies every cell.
      const out = new this.intrinsics.Array(v.length);
      for (let i = 0; i < v.length; i++) {
        const x = v[i];
        out[i] = x === null || typeof x !== 'object' ? x : this.in(x);
      }
      return out;
    }
    if (isPlainObject(v)) {
      const o = new this.intrinsics.Object();
      for (const k of Object.keys(v)) o[k] = this.in(v[k]);
      return o;
    }
    return v;
  }

  error(message, name = 'Exception') {
    const e = new this.intrinsics.Error(message);
    e.name = name;
    return e;
  }
}

/** Copies a context value back into the main realm (Dates stay Dates). */
function fromRealm(v, seen = new Set()) {
  if (v === null || typeof v !== 'object') return v;
  if (v instanceof EnumValue) return v;
  if (isDate(v)) return new Date(v.getTime());
  if (seen.has(v)) throw new TypeError('Converting circular structure');
  seen.add(v);
  try {
    if (Array.isArray(v)) return Array.from(v, (x) => fromRealm(x, seen));
    if (isPlainObject(v)) {
      const o = {};
      for (const k of Object.keys(v)) o[k] = fromRealm(v[k], seen);
      return o;
    }
    return v;
  } finally {
    seen.delete(v);
  }
}

module.exports = { Realm, fromRealm, isDate, isPlainObject };
