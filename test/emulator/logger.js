'use strict';
// Logger and console: everything the script logs lands in emu.logs ({ source, level, message, atMs,
// executionId }), so tests can read it (and prove that no secret was ever logged).
const util = require('node:util');
const { instrument } = require('./execution');
const { isDate } = require('./realm');

function show(v) {
  if (typeof v === 'string') return v;
  if (
    v &&
    typeof v === 'object' &&
    typeof v.message === 'string' &&
    typeof v.name === 'string' &&
    'stack' in v
  ) {
    return v.stack || `${v.name}: ${v.message}`;
  }
  if (isDate(v)) return v.toString();
  if (v && typeof v === 'object') {
    try {
      return JSON.stringify(v);
    } catch {
      return util.inspect(v);
    }
  }
  return String(v);
}

function format(args) {
  if (typeof args[0] === 'string' && /%[sdifoOj%]/.test(args[0])) {
    let i = 1;
    const head = args[0].replace(/%([sdifoOj%])/g, (m, t) => {
      if (t === '%') return '%';
      if (i >= args.length) return m;
      const v = args[i++];
      if (t === 'd' || t === 'i') return String(parseInt(v, 10));
      if (t === 'f') return String(parseFloat(v));
      return show(v);
    });
    return [head, ...args.slice(i).map(show)].join(' ');
  }
  return args.map(show).join(' ');
}

function write(env, source, level, args) {
  const { emu, exec } = env;
  emu.logs.push({
    source,
    level,
    message: format(args),
    atMs: emu.clock.now(),
    executionId: exec ? exec.id : null,
  });
}

class LoggerImpl {
  constructor(env) {
    this._env = env;
    this._lines = [];
  }
  log(...args) {
    write(this._env, 'Logger', 'info', args);
    this._lines.push(format(args));
    return this;
  }
  getLog() {
    return this._lines.join('\n');
  }
  clear() {
    this._lines = [];
  }
}

class ConsoleImpl {
  constructor(env) {
    this._env = env;
    this._timers = new Map();
  }
  log(...args) {
    write(this._env, 'console', 'log', args);
  }
  info(...args) {
    write(this._env, 'console', 'info', args);
  }
  warn(...args) {
    write(this._env, 'console', 'warn', args);
  }
  error(...args) {
    write(this._env, 'console', 'error', args);
  }
  debug(...args) {
    write(this._env, 'console', 'debug', args);
  }
  time(label = 'default') {
    this._timers.set(label, this._env.emu.clock.now());
  }
  timeEnd(label = 'default') {
    const t = this._timers.get(label);
    if (t !== undefined)
      write(this._env, 'console', 'info', [`${label}: ${this._env.emu.clock.now() - t}ms`]);
    this._timers.delete(label);
  }
}

instrument(LoggerImpl, { label: 'Logger', group: 'logger' });
instrument(ConsoleImpl, { label: 'console', group: 'logger' });

module.exports = { LoggerImpl, ConsoleImpl, formatLog: format };
