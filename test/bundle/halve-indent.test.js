'use strict';
// The build halves TypeScript's 4-space indents; spaces inside literals are content and must stay.
const vm = require('node:vm');
const { runBuildStep } = require('../support/build-step');

const halveIndent = (code) => runBuildStep('dev/build/apps-script-entry-points.mjs', 'halveIndent', code);

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
