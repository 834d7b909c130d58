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
  const carrier = '"features/schedule": function () {/*\n';
  const start = code.indexOf(carrier) + carrier.length;
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

/** What the build says of a module whose rollup output is `code`: 'built', or why it refuses it. */
function buildModule(code) {
  const script = `import { moduleParts } from './dev/build/lazy-modules.mjs';
    try { moduleParts('features/x.js', ${JSON.stringify(code)}, (c) => c); process.stdout.write('built'); }
    catch (error) { process.stdout.write(error.message); }`;
  return execFileSync(process.execPath, ['--input-type=module', '-e', script], { cwd: ROOT }).toString();
}

test('the build refuses a module whose code would end the comment that carries it', () => {
  expect(buildModule('const spaces = /a\\s*/g;')).toMatch(
    /^features\/x\.js, line 1 of its compiled code, holds "\*\/", which would end the comment/,
  );
});

test('the build refuses an export the loader could not assign (it assigns each top-level declaration)', () => {
  expect(buildModule('const a = 1;\nexports.a = a;')).toBe('built');
  expect(buildModule('const { a, b } = pair();\nexports.a = a;\nexports.b = b;')).toMatch(
    /^features\/x\.js exports a, b, which the loader cannot find as top-level declarations/,
  );
});
