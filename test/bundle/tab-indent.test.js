'use strict';
// The build writes one tab per level for TypeScript's 4-space indents; spaces inside literals are content
// and must stay.
const vm = require('node:vm');
const { runBuildStep } = require('../support/build-step');

const tabIndent = (code) => runBuildStep('dev/build/apps-script-entry-points.mjs', 'tabIndent', code);

test('code is indented with one tab a level, multi-line literals are left exactly as they are', () => {
  const code = [
    'function f() {',
    '    const t = `line one',
    '        kept as it is',
    '    ${1 + 1}',
    '            still kept`;',
    "    const s = 'a\\",
    "        b';",
    '    if (t) {',
    '        return [t, s]',
    '          .concat([]);',
    '    }',
    '}',
    'f();',
  ].join('\n');
  const out = tabIndent(code);
  expect(out.split('\n')).toEqual([
    'function f() {',
    '\tconst t = `line one',
    '        kept as it is',
    '    ${1 + 1}',
    '            still kept`;',
    "\tconst s = 'a\\",
    "        b';",
    '\tif (t) {',
    '\t\treturn [t, s]',
    '\t\t  .concat([]);',
    '\t}',
    '}',
    'f();',
  ]);
  expect(vm.runInNewContext(`${out.replace('f();', '')}; f()`)).toEqual(
    vm.runInNewContext(`${code.replace('f();', '')}; f()`),
  );
});
