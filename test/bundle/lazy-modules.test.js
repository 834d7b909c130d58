'use strict';
// Each module of the library (a capability: features/mail, platform, zod…) is carried in a comment of
// dist/Code.js and compiled the first time an execution uses it (dev/build/lazy-modules.mjs,
// module-loader.js): opening the menu compiles the menu's module only, a custom function none of the sending
// code, and a module no execution uses is never compiled at all.
const fs = require('node:fs');
const path = require('node:path');
const { execFileSync } = require('node:child_process');
const { AppsScriptEmulator } = require('../emulator');
const { Realm } = require('../emulator/realm');
const { compiledModules } = require('../../dev/build/module-table');

const ROOT = path.join(__dirname, '..', '..');
const DIST = path.join(ROOT, 'dist');
const BROKEN = path.join(ROOT, 'test-output', 'lazy-modules');

/** The modules each execution compiled, in the order it compiled them. */
const compiledBy = [];
const call = Realm.prototype.call;
beforeAll(() => {
  Realm.prototype.call = function recording(fn, args) {
    try {
      return call.call(this, fn, args);
    } finally {
      compiledBy.push(compiledModules(this));
    }
  };
});
afterAll(() => {
  Realm.prototype.call = call;
});

let emu;
afterEach(() => emu && emu.dispose());

function addon(dir = DIST) {
  emu = new AppsScriptEmulator({ codePath: path.join(dir, 'Code.js'), htmlDir: dir });
  return emu;
}

test('opening the document compiles the menu and nothing else', () => {
  addon().run('onOpen', [{ authMode: 'FULL' }]);
  expect(compiledBy.at(-1)).toEqual(['ui']);
});

test('a custom function compiles its own modules, none of those that send, track or follow up', () => {
  expect(addon().runCustomFunction('PROSPECT_ROLE', ['Head of Sales'])).toEqual([['Sales', 'Director']]);
  const compiled = compiledBy.at(-1);
  expect(compiled).toContain('features/prospecting');
  expect(
    compiled.filter((name) => /^features\/(mail|outbox|sequence|tracking|inbox|schedule)$/.test(name)),
  ).toEqual([]);
});

test("a progress dialog's poll compiles its own job's capability, not the others'", () => {
  expect(addon().run('continueJob', ['phone'], { kind: 'webapp' })).toMatchObject({ finished: true });
  const compiled = compiledBy.at(-1);
  expect(compiled).toContain('features/phone');
  expect(compiled.filter((name) => /^features\/(mail|prospecting|tracking)$/.test(name))).toEqual([]);
});

test('a module is compiled only by the executions that use it: broken, it fails those and no other', () => {
  fs.mkdirSync(BROKEN, { recursive: true });
  for (const file of fs.readdirSync(DIST)) fs.copyFileSync(path.join(DIST, file), path.join(BROKEN, file));
  const code = fs.readFileSync(path.join(DIST, 'Code.js'), 'utf8');
  const carrier = '\tcode: function () {/*\n';
  const start = code.indexOf(carrier, code.indexOf('"features/schedule": {')) + carrier.length;
  const broken = `${code.slice(0, start)}throw new Error('the schedule was compiled');\n${code.slice(start)}`;
  fs.writeFileSync(path.join(BROKEN, 'Code.js'), broken);

  addon(BROKEN).run('onOpen', [{ authMode: 'FULL' }]);
  expect(emu.runCustomFunction('PROSPECT_ROLE', ['CEO'])).toEqual([['Management', 'Owner / C-level']]);
  emu.spreadsheet
    .insertSheet('List')
    .getRange(1, 1, 2, 2)
    .setValues([
      ['Name', 'Email'],
      ['Ann', 'ann@example.com'],
    ]);
  expect(() =>
    emu.run('saveTemplate', [{ campaign: 'C', subject: 'Hi', body: 'Hello', bodyFormat: 'text' }], {
      kind: 'webapp',
    }),
  ).not.toThrow();
  expect(() => emu.run('onHourlyTimer', [{ triggerUid: 'none' }])).toThrow('the schedule was compiled');
});

/** What an ES module script (the build's code is ES modules) writes to its standard output. */
function scriptOutput(script) {
  return execFileSync(process.execPath, ['--input-type=module', '-e', script], { cwd: ROOT }).toString();
}

/** What the build says of a module whose rollup output is `code`: 'built', or why it refuses it. */
function buildModule(code) {
  return scriptOutput(`import { moduleParts } from './dev/build/lazy-modules.mjs';
    try { moduleParts('features/x.js', ${JSON.stringify(code)}, (c) => c); process.stdout.write('built'); }
    catch (error) { process.stdout.write(error.message); }`);
}

test('the build refuses a module whose code would end the comment that carries it', () => {
  expect(buildModule('const spaces = /a\\s*/g;')).toMatch(
    /^features\/x\.js, line 1 of its compiled code, holds "\*\/", which would end the comment/,
  );
});

/** Runs the library the build makes of `modules` ({ name, code }) and calls its entry point F. */
function runLibrary(modules, entry) {
  const answer = scriptOutput(`import vm from 'node:vm';
    import { libraryScript } from './dev/build/lazy-modules.mjs';
    const code = libraryScript({ modules: ${JSON.stringify(modules)}, entryPoints: { F: ${JSON.stringify(entry)} },
      constants: {}, libraryKey: 'test.library' });
    const context = vm.createContext({});
    vm.runInContext(code, context);
    process.stdout.write(JSON.stringify(vm.runInContext('globalThis[Symbol.for("test.library")].F()', context)));`);
  return JSON.parse(answer);
}

test("the loader gives importers a module's exports, and what it exports under another name", () => {
  const settings = [
    'function keyOf() { return "a private keyOf"; }',
    'function keyOf$1() { return "the exported keyOf"; }',
    'function list() { return ["spread"]; }',
    'const LIMIT = 3;',
    'exports.keyOf = keyOf$1;',
  ].join('\n');
  const caller = [
    'const settings = require("settings");',
    'function read() { return [settings.keyOf(), settings.LIMIT, ...settings.list()]; }',
  ].join('\n');
  const modules = [
    { name: 'settings', code: settings, exports: ['list', 'LIMIT'], reexports: ['keyOf'] },
    { name: 'caller', code: caller, exports: [], reexports: [] },
  ];
  expect(runLibrary(modules, ['caller', 'read'])).toEqual(['the exported keyOf', 3, 'spread']);
});

test('`?.` and `??` lowered with `== null` give what they give in ES2020, for every kind of value', () => {
  const answer = scriptOutput(`import ts from 'typescript';
    import { looseNullChecks } from './dev/build/lazy-modules.mjs';
    const source = 'function f(a, g) { return [a?.b, a?.b?.c, a ?? "dflt", g()?.b ?? 0, a?.b.c, !a?.b]; }';
    const lowered = ts.transpileModule(source, { compilerOptions: { target: ts.ScriptTarget.ES2019 } }).outputText;
    const loose = looseNullChecks(lowered);
    const values = [null, undefined, 0, '', false, {}, { b: null }, { b: { c: 1 } }];
    const run = (code) => values.map((a) => { try { return new Function(code + '; return f;')()(a, () => a); }
      catch (error) { return error.constructor.name; } });
    process.stdout.write(JSON.stringify({ changed: loose !== lowered, same: JSON.stringify(run(loose)) ===
      JSON.stringify(run(lowered)), strict: /=== null|!== null|=== void 0|!== void 0/.test(loose),
      native: JSON.stringify(run(loose)) === JSON.stringify(run(source)) }));`);
  expect(JSON.parse(answer)).toEqual({ changed: true, same: true, strict: false, native: true });
});
