'use strict';
// Jest's node environment, with the ECMAScript built-ins bound as top-level constants of the test context.
// Jest runs every module in a node:vm context, where each global look-up (a `Math.imul` in a hash loop)
// goes through the context's interceptor, about 100 times slower than a local one; a script's top-level
// `const` is read without it. Same values: the test code sees the context's own built-ins, as before.
// `Date`, `Promise` and the timers stay global, so that fake timers can still replace them.
const vm = require('node:vm');
const { TestEnvironment } = require('jest-environment-node');

const KEPT_GLOBAL = new Set(['Date', 'Promise', 'eval', 'console', 'globalThis']);
/** The ECMAScript built-ins (what a bare context has), but the non-configurable ones and KEPT_GLOBAL. */
const BUILT_INS = vm
  .runInNewContext(
    `Object.getOwnPropertyNames(globalThis).filter(
      (name) => Object.getOwnPropertyDescriptor(globalThis, name).configurable)`,
  )
  .filter((name) => !KEPT_GLOBAL.has(name));
const BINDINGS = new vm.Script(`const ${BUILT_INS.map((name) => `${name} = this.${name}`).join(', ')};`, {
  filename: 'test-environment/bindings.js',
});

class FastGlobalsEnvironment extends TestEnvironment {
  constructor(config, context) {
    super(config, context);
    BINDINGS.runInContext(this.getVmContext());
  }
}

module.exports = FastGlobalsEnvironment;
