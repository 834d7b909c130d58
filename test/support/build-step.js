'use strict';
// Runs one text-to-text step of the build (an ES module under dev/build/) on a string, in a child node: the
// tests are CommonJS and the build's modules are ES modules.
const path = require('node:path');
const { execFileSync } = require('node:child_process');

const ROOT = path.join(__dirname, '..', '..');

/** `fn(text)` of the named export `fn` of `modulePath` (relative to the project root). */
function runBuildStep(modulePath, fn, text) {
  const script = `import { ${fn} } from './${modulePath}';
    process.stdout.write(${fn}(process.argv[1]));`;
  return execFileSync(process.execPath, ['--input-type=module', '-e', script, text], {
    cwd: ROOT,
  }).toString();
}

module.exports = { runBuildStep };
