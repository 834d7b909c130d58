'use strict';
// Compares two bench JSON files figure by figure, leaving out what the machine decides (wall-clock time,
// memory, the bundle's evaluation times, when the run was made): two runs of one build print nothing.
//
//   node dev/bench/compare.js bench-results/a.json bench-results/b.json
const fs = require('node:fs');

/**
 * Fields of a run that are real time or memory (they differ between any two runs), and `missed`, the targets'
 * text, made of the figures compared here and of the bundle's evaluation time.
 */
const MACHINE_FIELDS = new Set([
  'realMs',
  'peakRssBytes',
  'peakHeapUsedBytes',
  'generatedAt',
  'evaluation',
  'missed',
]);

/** Every path where `a` and `b` differ, with both values (at most 150 characters each). */
function differences(a, b, at = '', out = []) {
  if (a === null || b === null || typeof a !== 'object' || typeof b !== 'object') {
    const [x, y] = [JSON.stringify(a), JSON.stringify(b)];
    if (x !== y) out.push(`${at}: ${String(x).slice(0, 150)} ≠ ${String(y).slice(0, 150)}`);
    return out;
  }
  for (const key of new Set([...Object.keys(a), ...Object.keys(b)])) {
    if (!MACHINE_FIELDS.has(key)) differences(a[key], b[key], `${at}.${key}`, out);
  }
  return out;
}

if (require.main === module) {
  const [a, b] = process.argv.slice(2).map((file) => JSON.parse(fs.readFileSync(file, 'utf8')));
  const found = differences(a, b);
  console.log(found.length ? found.join('\n') : 'Same figures (wall-clock time and memory left out).');
  process.exitCode = found.length ? 1 : 0;
}

module.exports = { differences, MACHINE_FIELDS };
