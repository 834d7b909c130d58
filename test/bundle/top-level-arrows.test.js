'use strict';
// The build writes each module's top-level arrow functions as function expressions (V8 parses an arrow in
// full when the function around it is compiled; a function waits for its first call). Same results, and an
// arrow that reads `this`, `arguments` or `new.target` where it is written stays an arrow.
const fs = require('node:fs');
const path = require('node:path');
const vm = require('node:vm');
const { runBuildStep } = require('../support/build-step');
const ts = require('typescript');
const { readModules } = require('../../dev/build/module-table');

const ROOT = path.join(__dirname, '..', '..');

const rewrite = (code) => runBuildStep('dev/build/top-level-arrows.mjs', 'topLevelArrowsAsFunctions', code);

/** Arrow functions of `code` that no function encloses. */
function topLevelArrows(code, root) {
  const source = ts.createSourceFile('x.js', code, ts.ScriptTarget.Latest, true, ts.ScriptKind.JS);
  const found = [];
  const visit = (node) => {
    if (ts.isArrowFunction(node)) found.push(node.getText(source).slice(0, 60));
    if (ts.isFunctionLike(node) && node !== root?.(source)) return;
    ts.forEachChild(node, visit);
  };
  ts.forEachChild(source, visit);
  return found;
}

const SAMPLE = [
  'const double = (x) => x * 2;',
  'const pair = (a, b = 1) => ({ a, b });',
  'const sum = (...xs) => {',
  '  const add = (p, q) => p + q;',
  '  return xs.reduce(add, 0);',
  '};',
  'const later = async (x) => x + 1;',
  'const self = () => this;',
  'const args = () => arguments.length;',
  'function outer() {',
  '  return [1, 2].map((x) => x + 1);',
  '}',
  'result = { d: double(4), p: pair(2), s: sum(1, 2, 3), o: outer(), t: self(), n: args() };',
  'result.later = later(1);',
].join('\n');

/** Runs `code` as a function body (as the library is run) and returns what it puts in `result`. */
function run(code) {
  const context = vm.createContext({ result: undefined });
  vm.runInContext(`(function () {\n'use strict';\n${code}\n}).call(undefined, 'a', 'b');`, context);
  return context.result;
}

test('top-level arrows become functions that give the same results; nested ones and this/arguments readers stay', async () => {
  const out = rewrite(SAMPLE);
  expect(out).toContain('const double = function (x) { return x * 2; };');
  expect(out).toContain('const pair = function (a, b = 1) { return ({ a, b }); };');
  expect(out).toContain('const later = async function (x) { return x + 1; };');
  expect(out).toContain('const add = (p, q) => p + q;'); // inside sum: parsed when sum runs
  expect(out).toContain('const self = () => this;');
  expect(out).toContain('const args = () => arguments.length;');
  expect(out).toContain('[1, 2].map((x) => x + 1)');
  const before = run(SAMPLE);
  const after = run(out);
  expect({ ...after, later: await after.later }).toEqual({ ...before, later: await before.later });
  expect(after).toMatchObject({ d: 8, p: { a: 2, b: 1 }, s: 6, o: [2, 3], t: undefined, n: 2 });
});

test("dist/Code.js: no module's top level has an arrow function", () => {
  const code = fs.readFileSync(path.join(ROOT, 'dist', 'Code.js'), 'utf8');
  const bodies = Object.values(readModules(code)).map((module) => module.code);
  expect(bodies.length).toBeGreaterThan(10);
  expect(bodies.flatMap((body) => topLevelArrows(body))).toEqual([]);
});
