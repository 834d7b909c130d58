'use strict';
// npm run bench: what costs in Apps Script, against its floor. Runs the built add-on (dist/Code.js) in the
// Apps Script emulator against the service sandbox on one virtual clock, prints a table and writes it as
// JSON. Missed targets are reported, not fatal; a crash exits non-zero. See dev/bench/README.md.
//
//   node dev/bench/run.js [--quick] [--out FILE] [--only id,id] [--eval-runs N]
const fs = require('node:fs');
const path = require('node:path');
const { startServices, dataset, ROOT } = require('../../test/support/harness');
const { measureBundle, topLevelDeclarations } = require('./bundle');
const { MemorySampler } = require('./memory');
const { OPERATIONS, chunkSizes } = require('./operations');
const { COLUMNS, applyTargets, missedTargets, formatTable, formatBundle } = require('./report');

const CODE_PATH = path.join(ROOT, 'dist', 'Code.js');
const INDEX_PATH = path.join(ROOT, 'src', 'index.ts');

function parseArgs(argv) {
  const options = {
    quick: false,
    out: path.join(ROOT, 'bench-results', 'latest.json'),
    only: null,
    evalRuns: null,
  };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (arg === '--quick') options.quick = true;
    else if (arg === '--out') options.out = path.resolve(argv[++i]);
    else if (arg === '--only') options.only = argv[++i].split(',').map((s) => s.trim());
    else if (arg === '--eval-runs') options.evalRuns = Number(argv[++i]);
    else if (arg === '--help' || arg === '-h') options.help = true;
    else throw new Error(`unknown option ${arg} (try --help)`);
  }
  if (options.evalRuns === null) options.evalRuns = options.quick ? 5 : 20;
  return options;
}

/** Top-level functions of the bundle, by name (what an operation may call). */
function bundleFunctions(source) {
  return new Set(topLevelDeclarations(source).functions);
}

function emptyRow(op, size, extra) {
  const row = { id: op.id, name: op.name, size, label: `${size} ${op.unit}` };
  for (const column of COLUMNS) row[column] = null;
  return { ...row, ...extra };
}

async function runBench(options, log = console.log) {
  if (!fs.existsSync(CODE_PATH)) throw new Error(`${CODE_PATH} is missing: run npm run build first`);
  const source = fs.readFileSync(CODE_PATH, 'utf8');
  const notes = [];
  const note = (text) => {
    notes.push(text);
    log(`note: ${text}`);
  };
  const results = {
    generatedAt: new Date().toISOString(),
    mode: options.quick ? 'quick' : 'full',
    node: process.version,
    bundle: measureBundle({ codePath: CODE_PATH, indexPath: INDEX_PATH, runs: options.evalRuns }),
    operations: [],
    notes,
    crashed: false,
  };
  if (results.bundle.evalError) note(results.bundle.evalError);

  const functions = bundleFunctions(source);
  const memory = new MemorySampler();
  const services = await startServices();
  const emulators = [];
  const ctx = {
    services,
    memory,
    data: dataset(),
    chunkSizes: chunkSizes(source, note),
    note,
    track: (emu) => emulators.push(emu),
  };
  try {
    for (const op of OPERATIONS) {
      if (options.only && !options.only.includes(op.id)) continue;
      const sizes = options.quick ? op.sizes.quick : op.sizes.full;
      const missing = op.requires.filter((name) => !functions.has(name));
      if (missing.length) {
        note(`${op.name}: skipped, dist/Code.js has no ${missing.join(', ')}`);
        for (const size of sizes) {
          results.operations.push(emptyRow(op, size, { skipped: true, note: `no ${missing.join(', ')}` }));
        }
        continue;
      }
      for (const size of sizes) {
        log(`… ${op.name}, ${size} ${op.unit}`);
        try {
          const rows = await op.run(ctx, size);
          for (const row of rows) results.operations.push({ id: op.id, name: op.name, size, ...row });
        } catch (error) {
          results.crashed = true;
          note(`${op.name} ${size} ${op.unit} crashed: ${(error && error.stack) || error}`);
          results.operations.push(
            emptyRow(op, size, { error: String((error && error.message) || error).split('\n')[0] }),
          );
        } finally {
          while (emulators.length) emulators.pop().dispose();
        }
      }
    }
  } finally {
    await services.sandbox.stop();
    await memory.stop();
  }
  applyTargets(results.operations);
  results.missed = missedTargets(results);
  return results;
}

function writeResults(results, file) {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, `${JSON.stringify(results, null, 2)}\n`);
}

function printResults(results, file, log = console.log) {
  log('');
  log(formatTable(results.operations));
  log('');
  log(formatBundle(results.bundle));
  log('');
  log('Targets: requests = minimum; no 429; spreadsheet calls per chunk not growing with size (+10%);');
  log('modelled time (every service call charged by the cost model, dev/bench/README.md) ≤ floor + 10% when');
  log('the floor is > 0, else ≤ 30 s (custom functions: 30 s per execution); no execution over its limit;');
  log('document properties < 250 KB; auto-refresh ≤ 15 trigger minutes a day; only the entry points as');
  log('globals. Bundle guards: ≤ 650 KB, evaluated in ≤ 40 ms of CPU time (median). Floor = max(0,');
  log('ceil(requests / limit) - 1) × window, per service (outreach 60 per 60 s, phone 1000 per hour), from');
  log('the minimum requests.');
  log('');
  if (results.missed.length) {
    log(`Missed targets (${results.missed.length}):`);
    for (const line of results.missed) log(`  ✗ ${line}`);
  } else log('Every target met.');
  log('');
  const relative = path.relative(process.cwd(), file);
  log(`Written to ${relative && !relative.startsWith('..') ? relative : file}`);
}

async function main() {
  const options = parseArgs(process.argv.slice(2));
  if (options.help) {
    console.log('node dev/bench/run.js [--quick] [--out FILE] [--only id,id] [--eval-runs N]');
    console.log(`operations: ${OPERATIONS.map((op) => op.id).join(', ')}`);
    return;
  }
  const results = await runBench(options);
  writeResults(results, options.out);
  printResults(results, options.out);
  if (results.crashed) process.exitCode = 1;
}

if (require.main === module) {
  main().catch((error) => {
    console.error((error && error.stack) || error);
    process.exitCode = 1;
  });
}

module.exports = { runBench, parseArgs, writeResults, printResults };
