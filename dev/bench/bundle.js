'use strict';
// The bundle as Apps Script sees it: its size, the names it puts in the global namespace (what
// google.script.run and the function picker can see), and the time to evaluate it in a fresh context.
// Apps Script parses and runs the whole file on every execution, each custom-function cell included.
const fs = require('node:fs');
const vm = require('node:vm');
const { performance } = require('node:perf_hooks');
const ts = require('typescript');
const { readEntryPoints } = require('../build/entry-points');

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
 * Compile + evaluate the file in a fresh node:vm context, `runs` times: the wall-clock and the CPU times (ms).
 * A unique trailing comment per run keeps V8's in-isolate compilation cache from answering (Apps Script starts
 * each execution cold). The CPU time is what a loaded machine does not inflate: on an idle one both agree.
 */
function evaluationTimes(source, runs) {
  const times = { wall: [], cpu: [] };
  for (let i = 0; i < runs; i++) {
    const text = `${source}\n// bench run ${i} ${Date.now()}\n`;
    const cpu = process.cpuUsage();
    const started = performance.now();
    const context = vm.createContext({});
    new vm.Script(text, { filename: 'Code.js' }).runInContext(context);
    times.wall.push(performance.now() - started);
    const used = process.cpuUsage(cpu);
    times.cpu.push((used.user + used.system) / 1000);
  }
  return times;
}

/**
 * Guards, not goals: Apps Script compiles and evaluates the whole file on every execution, and these keep that
 * below one property read (~30 ms) plus a margin. Measured: dev/bench/README.md.
 */
const MAX_BYTES = 650 * KB;
const MAX_EVAL_MS = 40;

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
    const { wall, cpu } = evaluationTimes(source, runs);
    evaluation = {
      runs,
      medianMs: median(wall),
      minMs: Math.min(...wall),
      maxMs: Math.max(...wall),
      firstMs: wall[0],
      cpuMedianMs: median(cpu),
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
      size: bytes <= maxBytes,
      globals: extra.length === 0 && missing.length === 0,
      evaluation: evaluation ? evaluation.cpuMedianMs <= maxEvalMs : null,
    },
  };
}

module.exports = {
  measureBundle,
  topLevelDeclarations,
  exportedFunctions,
  runtimeGlobals,
  median,
  KB,
};
