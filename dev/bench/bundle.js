'use strict';
// The bundle as Apps Script sees it: its size, the names it puts in the global namespace (what
// google.script.run and the function picker can see), and the time to evaluate it in a fresh context.
// Apps Script parses and runs the whole file on every execution, each custom-function cell included.
const fs = require('node:fs');
const vm = require('node:vm');
const { performance } = require('node:perf_hooks');
const { execFileSync } = require('node:child_process');
const ts = require('typescript');
const { readEntryPoints } = require('../build/entry-points');
const { readModules, LOADER } = require('../build/module-table');

const KB = 1024;

/** Names declared at the top level of a script (function, var, let, const, class), by kind. */
function topLevelDeclarations(source, fileName = 'Code.js') {
  const file = ts.createSourceFile(fileName, source, ts.ScriptTarget.ES2020, false, ts.ScriptKind.JS);
  const functions = [];
  const others = [];
  for (const statement of file.statements) {
    if (ts.isFunctionDeclaration(statement) && statement.name) functions.push(statement.name.text);
    else if (ts.isClassDeclaration(statement) && statement.name) others.push(statement.name.text);
    else if (ts.isVariableStatement(statement)) {
      for (const d of statement.declarationList.declarations) {
        if (ts.isIdentifier(d.name)) others.push(d.name.text);
        else others.push(d.name.getText(file));
      }
    }
  }
  return { functions, others };
}

/** The entry points of src/index.ts (read as the build reads them): what the bundle should expose. */
function exportedFunctions(indexPath) {
  return readEntryPoints(indexPath).map((entry) => entry.name);
}

/** Identifier-named own properties a script adds to a fresh context's global object. */
function runtimeGlobals(source) {
  const context = vm.createContext({});
  const before = new Set(Object.getOwnPropertyNames(context));
  new vm.Script(source, { filename: 'Code.js' }).runInContext(context);
  return Object.getOwnPropertyNames(context).filter((k) => !before.has(k));
}

function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

/**
 * Compile + evaluate the file in a fresh node:vm context, `runs` times. A unique trailing comment per run
 * keeps V8's in-isolate compilation cache from answering (Apps Script starts each execution cold).
 */
function evaluationTimes(source, runs) {
  const times = [];
  for (let i = 0; i < runs; i++) {
    const text = `${source}\n// bench run ${i} ${Date.now()}\n`;
    const started = performance.now();
    const context = vm.createContext({});
    new vm.Script(text, { filename: 'Code.js' }).runInContext(context);
    times.push(performance.now() - started);
  }
  return times;
}

/**
 * One execution's start-up: a fresh context, the file evaluated, then `modules` compiled (what an execution of
 * the entry point compiled, in its order): the part of an execution that grows with the code.
 */
function startupTime(source, modules, run) {
  const text = `${source}\n// bench run ${run} ${Date.now()}\n`;
  const started = performance.now();
  const context = vm.createContext({});
  new vm.Script(text, { filename: 'Code.js' }).runInContext(context);
  const loader = vm.runInContext(LOADER, context);
  for (const name of modules) loader.compile(name);
  return performance.now() - started;
}

/**
 * Start-ups of the entry points the benchmark ran, each with the most modules one of its executions compiled,
 * and of '(the file)' alone: [{ entry, modules, share (of the library's code), medianMs }], slowest first. Each
 * entry point is measured in a Node process of its own (the garbage of one entry point's runs would be collected
 * in the next one's), `runs` times after three runs not counted.
 */
function measureStartups(codePath, compiledByEntry, runs = 20) {
  const source = fs.readFileSync(codePath, 'utf8');
  const sizes = Object.fromEntries(
    Object.entries(readModules(source)).map(([name, { code }]) => [name, code.length]),
  );
  const total = Object.values(sizes).reduce((a, b) => a + b, 0);
  const script = `const { startupTimes } = require(${JSON.stringify(__filename)});
    const { codePath, modules, runs } = JSON.parse(require('node:fs').readFileSync(0, 'utf8'));
    process.stdout.write(JSON.stringify(startupTimes(codePath, modules, runs)));`;
  return [['(the file)', []], ...Object.entries(compiledByEntry)]
    .map(([entry, modules]) => {
      const input = JSON.stringify({ codePath, modules, runs });
      const times = JSON.parse(execFileSync(process.execPath, ['-e', script], { input }).toString());
      return {
        entry,
        modules: modules.length,
        share: modules.reduce((sum, name) => sum + (sizes[name] || 0), 0) / total,
        medianMs: median(times),
      };
    })
    .sort((a, b) => b.medianMs - a.medianMs);
}

/** startupTime `runs` times, after three runs not counted. */
function startupTimes(codePath, modules, runs) {
  const source = fs.readFileSync(codePath, 'utf8');
  const times = [];
  for (let run = -3; run < runs; run++) {
    const ms = startupTime(source, modules, run);
    if (run >= 0) times.push(ms);
  }
  return times;
}

/** Target for the size of dist/Code.js (Apps Script compiles all of it on every execution). */
const MAX_BYTES = 330 * KB;

/** Target for the median compile + evaluation time (Apps Script evaluates the file on every execution). */
const MAX_EVAL_MS = 15;

/**
 * @param {{codePath: string, indexPath: string, runs?: number, maxBytes?: number}} options
 */
function measureBundle({ codePath, indexPath, runs = 20, maxBytes = MAX_BYTES, maxEvalMs = MAX_EVAL_MS }) {
  const source = fs.readFileSync(codePath, 'utf8');
  const bytes = Buffer.byteLength(source, 'utf8');
  const declared = topLevelDeclarations(source);
  const entryPoints = exportedFunctions(indexPath);
  let runtime = null;
  let evaluation = null;
  let evalError = null;
  try {
    runtime = runtimeGlobals(source);
    const times = evaluationTimes(source, runs);
    evaluation = {
      runs,
      medianMs: median(times),
      minMs: Math.min(...times),
      maxMs: Math.max(...times),
      firstMs: times[0],
    };
  } catch (error) {
    evalError = `evaluating ${codePath} in a fresh context failed: ${error && error.message}`;
  }
  const globals = [...new Set([...declared.functions, ...declared.others, ...(runtime || [])])];
  const extra = globals.filter((name) => !entryPoints.includes(name));
  const missing = entryPoints.filter((name) => !declared.functions.includes(name));
  return {
    path: codePath,
    bytes,
    maxBytes,
    maxEvalMs,
    declaredFunctions: declared.functions.length,
    otherTopLevel: declared.others,
    globals: globals.length,
    entryPoints: entryPoints.length,
    extraGlobals: extra,
    missingEntryPoints: missing,
    evaluation,
    evalError,
    targets: {
      size: bytes < maxBytes,
      globals: extra.length === 0 && missing.length === 0,
      evaluation: evaluation ? evaluation.medianMs <= maxEvalMs : null,
    },
  };
}

module.exports = {
  measureBundle,
  measureStartups,
  startupTimes,
  topLevelDeclarations,
  exportedFunctions,
  runtimeGlobals,
  median,
  KB,
};
