'use strict';
// The build halves TypeScript's 4-space indents; spaces inside literals are content and must stay.
const path = require('node:path');
const vm = require('node:vm');
const { execFileSync } = require('node:child_process');

const ROOT = path.join(__dirname, '..', '..');

function halveIndent(code) {
  const script = `import { halveIndent } from './dev/build/apps-script-entry-points.mjs';
    process.stdout.write(halveIndent(process.argv[1]));`;
  return execFileSync(process.execPath, ['--input-type=module', '-e', script, code], {
    cwd: ROOT,
  }).toString();
}

test('code is re-indented by two, multi-line literals are left exactly as they are', () => {
  const code = [
    'function f() {',
    '    const t = `line one',
    '        kept as it is',
    '    ${1 + 1}',
    '            still kept`;',
    "    const s = 'a\\",
    "        b';",
    '    if (t) {',
    '        return [t, s];',
    '    }',
    '}',
    'f();',
  ].join('\n');
  const out = halveIndent(code);
  expect(out.split('\n')).toEqual([
    'function f() {',
    '  const t = `line one',
    '        kept as it is',
    '    ${1 + 1}',
    '            still kept`;',
    "  const s = 'a\\",
    "        b';",
    '  if (t) {',
    '    return [t, s];',
    '  }',
    '}',
    'f();',
  ]);
  expect(vm.runInNewContext(`${out.replace('f();', '')}; f()`)).toEqual(
    vm.runInNewContext(`${code.replace('f();', '')}; f()`),
  );
});
