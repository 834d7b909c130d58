'use strict';
// One execution (a menu click, a trigger, a google.script.run call, a custom-function cell) and the
// instrumentation every service object goes through: time limit, auth-mode rules, counting, and moving
// values and errors across the realm boundary.
const { AppsScriptError, TimeLimitError, TIME_LIMIT_MESSAGE } = require('./errors');

const LIMITS_MS = { menu: 360000, trigger: 360000, webapp: 360000, simple: 30000, custom: 30000 };
const KINDS = Object.keys(LIMITS_MS);
const AUTH_MODES = ['NONE', 'LIMITED', 'FULL', 'CUSTOM_FUNCTION'];

class Execution {
  constructor(emu, { id, name, kind, authMode, user, effectiveUser, triggerType = null, cell = null }) {
    if (!KINDS.includes(kind)) throw new TypeError(`unknown execution kind ${kind}`);
    if (!AUTH_MODES.includes(authMode)) throw new TypeError(`unknown authMode ${authMode}`);
    this.emu = emu;
    this.id = id;
    this.name = name;
    this.kind = kind;
    this.authMode = authMode;
    this.user = user; // the active user's e-mail ('' in custom functions)
    this.effectiveUser = effectiveUser; // whose user properties/cache/triggers
    this.triggerType = triggerType;
    this.cell = cell; // custom functions: { sheetId, row, col } of the calling cell
    this.startMs = emu.clock.now();
    this.limitMs = LIMITS_MS[kind];
    this.timedOut = false;
    this.realm = null;
    this.depth = 0;
    this.heldLocks = new Set();
    this.pendingSheetWrites = false; // cost model: writes in the write-back cache, not yet flushed
  }

  get isCustomFunction() {
    return this.kind === 'custom';
  }

  get deadline() {
    return this.startMs + this.limitMs;
  }

  /** Throws once the virtual time passed the limit; every later call throws too. */
  checkTime() {
    if (this.timedOut || this.emu.clock.now() > this.deadline) {
      this.timedOut = true;
      throw new TimeLimitError();
    }
  }

  /** Moves the virtual clock (sleep, lock waits); passing the limit stops the execution there. */
  spend(ms) {
    this.checkTime();
    const now = this.emu.clock.now();
    if (now + ms > this.deadline) {
      this.emu.clock.advance(Math.max(0, this.deadline - now));
      this.timedOut = true;
      throw new TimeLimitError();
    }
    this.emu.clock.advance(ms);
  }

  /** Converts whatever a service threw into an error of the script's realm. */
  toRealmError(e) {
    if (!this.realm) return e;
    if (e instanceof AppsScriptError) {
      const r = this.realm.error(e.message, e.name);
      if (e.timeLimit) this.timedOut = true;
      if (e.details) r.details = this.realm.in(e.details); // GoogleJsonResponseException's
      return r;
    }
    if (e instanceof Error) {
      const r = this.realm.error(e.message, e.name);
      r.stack = e.stack;
      return r;
    }
    return e; // already the script's own error (thrown by script code a service called back)
  }
}

/**
 * Wraps every public prototype method of a service class: a call made by the script (an execution is
 * running and this is not a call from inside another service method) is checked, counted and its result
 * copied into the script's realm. Test-side objects (no execution) run the raw method.
 *
 * @param {Function} Class
 * @param {{ label: string, group?: string, classify?: (name: string) => 'read'|'write'|'other',
 *   guard?: (exec: Execution, method: string, kind: string, self: object) => void, raw?: string[] }} spec
 */
function instrument(Class, spec) {
  const classify = spec.classify || defaultClassify;
  for (const name of Object.getOwnPropertyNames(Class.prototype)) {
    if (name === 'constructor' || name.startsWith('_')) continue;
    const desc = Object.getOwnPropertyDescriptor(Class.prototype, name);
    if (typeof desc.value !== 'function') continue;
    const raw = desc.value;
    const kind = classify(name);
    const label = `${spec.label}.${name}`;
    const wrapped = {
      [name](...args) {
        const env = this._env;
        if (!env || !env.exec || env.exec.depth > 0) return raw.apply(this, args);
        const exec = env.exec;
        exec.depth++;
        try {
          exec.checkTime();
          if (spec.guard) spec.guard(exec, name, kind, this, args);
          exec.emu._count(spec.group || spec.label, label, kind);
          exec.emu._charge(exec, spec.group || spec.label, label, kind);
          // Another editor's edit just before this call lands (the test's own calls run raw: depth > 0).
          if (typeof exec.emu.beforeCall === 'function') exec.emu.beforeCall(label, args);
          const result = raw.apply(this, args);
          return exec.realm.in(result);
        } catch (e) {
          throw exec.toRealmError(e);
        } finally {
          exec.depth--;
        }
      },
    }[name];
    Object.defineProperty(Class.prototype, name, { ...desc, value: wrapped });
  }
  return Class;
}

function defaultClassify(name) {
  if (/^(get|is|has|can)[A-Z]?/.test(name)) return 'read';
  return 'other';
}

/** Runs `fn` as if the script were calling again (used when a service evaluates script code). */
function reenter(exec, fn) {
  if (!exec) return fn();
  const depth = exec.depth;
  exec.depth = 0;
  try {
    return fn();
  } finally {
    exec.depth = depth;
  }
}

module.exports = { Execution, instrument, reenter, LIMITS_MS, TIME_LIMIT_MESSAGE };
