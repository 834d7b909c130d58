'use strict';
// The Apps Script emulator: runs the built dist/Code.js in a fresh node:vm context per execution, with
// in-memory services that keep their state across executions (see README-like notes at each module).
//
//   const emu = new AppsScriptEmulator({ codePath: 'dist/Code.js', htmlDir: 'dist' });
//   emu.open();                                   // onOpen as a simple trigger
//   emu.run('showSettings');                      // a menu click
//   emu.run('saveSettings', [{...}], { kind: 'webapp' })   // google.script.run from a sidebar
//   emu.setFormula('Sheet1!B2', '=PHONE_CHECK(A2:A5)'); emu.recalculate();
//   emu.dispose();
const fs = require('node:fs');
const path = require('node:path');
const vm = require('node:vm');
const { Clock } = require('../../dev/clock');
const { AppsScriptError, TIME_LIMIT_MESSAGE } = require('./errors');
const { Execution } = require('./execution');
const { CostModel, resolveCostModel } = require('./cost-model');
const { Realm, fromRealm, isDate, isPlainObject } = require('./realm');
const { SpreadsheetModel } = require('./sheet-model');
const { SpreadsheetAppService, Spreadsheet, createChartsService, rangeFromA1 } = require('./spreadsheet');
const { UiRecorder } = require('./ui');
const { PropertyStore, PropertiesServiceImpl } = require('./properties');
const { CacheStores, CacheServiceImpl } = require('./cache');
const { LockManager, LockServiceImpl } = require('./lock');
const { ScriptAppService, TriggerStore, AuthMode } = require('./script-app');
const { HtmlServiceImpl } = require('./html-service');
const { UrlFetchAppImpl, SyncFetcher, FetchQuota } = require('./url-fetch');
const { GmailMailboxes, createGmailService, gmailSymbol } = require('./gmail');
const { UrlAllowlist } = require('./url-allowlist');
const { UtilitiesImpl } = require('./utilities');
const { SessionImpl, User } = require('./session');
const { LoggerImpl, ConsoleImpl } = require('./logger');
const { recalculate, shiftFormula, moveFormula } = require('./formulas');
const { toA1 } = require('./a1');
const { displayValue } = require('./values');
const { zonedParts } = require('./timezone');

const SERVICE_GROUPS = [
  'spreadsheet',
  'properties',
  'cache',
  'lock',
  'scriptApp',
  'html',
  'ui',
  'session',
  'utilities',
  'logger',
  'gmail',
];

/** How long past an execution's own limit the real-time guard waits on a real clock. */
const GUARD_MARGIN_MS = 5000;
/**
 * The real-time guards on a virtual clock (an execution's busy loop, a request's answer): only a busy loop or
 * a lost request takes this long. A test's execution or request takes seconds, and ten times that on a machine
 * loaded by other work, which must not fail it (a request timed out is retried: the counts change).
 */
const BUSY_LOOP_MS = 300_000;

function mulberry32(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function emptyStats() {
  const stats = {
    urlFetch: { calls: 0, requests: 0 },
    executions: 0,
    calls: {},
    cost: CostModel.emptyTotals(),
  };
  for (const g of SERVICE_GROUPS) stats[g] = { calls: 0, reads: 0, writes: 0 };
  return stats;
}

/** True when a value cannot cross google.script.run (Dates, functions, class instances). */
function hasIllegalValue(v) {
  if (v === null || v === undefined) return false;
  if (typeof v === 'function' || typeof v === 'symbol' || typeof v === 'bigint') return true;
  if (typeof v !== 'object') return false;
  if (isDate(v)) return true;
  if (Array.isArray(v)) return v.some(hasIllegalValue);
  if (!isPlainObject(v)) return true;
  return Object.values(v).some(hasIllegalValue);
}

function toMainError(e, exec) {
  if (exec && exec.timedOut) {
    const err = new Error(TIME_LIMIT_MESSAGE);
    err.name = 'Exception';
    err.timedOut = true;
    return err;
  }
  if (e && e.code === 'ERR_SCRIPT_EXECUTION_TIMEOUT') {
    // On a real clock the guard waits for the execution's own limit: past it, this is Apps Script's error.
    const pastLimit = exec && exec.emu.clock.now() > exec.deadline;
    const err = new Error(
      pastLimit
        ? TIME_LIMIT_MESSAGE
        : `${TIME_LIMIT_MESSAGE} (the emulator's real-time limit stopped a busy loop)`,
    );
    err.name = 'Exception';
    err.timedOut = true;
    return err;
  }
  if (e && typeof e === 'object' && typeof e.message === 'string') {
    const err = new Error(e.message);
    err.name = e.name || 'Error';
    if (e.stack) err.stack = e.stack;
    err.scriptError = e;
    return err;
  }
  const err = new Error(String(e));
  err.scriptError = e;
  return err;
}

class AppsScriptEmulator {
  /**
   * @param {object} [options]
   * @param {string} [options.codePath] the built script (e.g. 'dist/Code.js')
   * @param {string} [options.code] the script source (instead of codePath)
   * @param {string} [options.htmlDir] where HtmlService finds NAME.html (default: codePath's folder)
   * @param {string|false} [options.manifestPath] appsscript.json (default: htmlDir/appsscript.json if it exists);
   *   its oauthScopes are enforced (a service whose scope is missing throws a permission error), and so is its
   *   urlFetchWhitelist
   * @param {Clock} [options.clock] shared virtual clock (default Clock.virtual())
   * @param {number} [options.fetchLatencyMs=50] virtual ms each fetch / fetchAll batch adds
   * @param {number} [options.fetchTimeoutMs] real timeout of one HTTP request (30000; 300000 on a virtual clock)
   * @param {{owner?: string, active?: string}} [options.users]
   * @param {string} [options.timeZone] script and spreadsheet time zone (default: manifest's, else Etc/UTC)
   * @param {boolean} [options.enforceUrlFetchWhitelist=true] false: the manifest's urlFetchWhitelist is not enforced
   * @param {boolean|object} [options.costModel] true (or overrides of its table): every service call moves the
   *   virtual clock by its latency (cost-model.js); default off, or on with EMULATOR_COST_MODEL=1
   * @param {Function} [options.gmailIncoming] the source of incoming mail of the Gmail advanced service:
   *   (userEmail, { sinceMs, nowMs, getJson }) => messages to deliver (gmail.js; gmail-sandbox.js reads the sandbox)
   * @param {number} [options.gmailUnitsPerMinute=15000] Gmail's per-user quota units per minute
   * @param {number} [options.gmailQueryMaxChars] a limit on the length of `q` (none: Gmail documents none)
   * @param {number} [options.gmailLatencyMs=50] virtual ms of one Gmail call without the cost model
   * @param {string[]} [options.advancedServices] advanced services enabled besides the manifest's (['gmail'])
   */
  constructor(options = {}) {
    this.options = options;
    this.clock = options.clock || Clock.virtual();
    this.costModel = resolveCostModel(options.costModel);
    const modelFetchMs = this.costModel ? this.costModel.costs['urlFetch.call'] : 50;
    this.fetchLatencyMs = options.fetchLatencyMs === undefined ? modelFetchMs : options.fetchLatencyMs;
    this.fetchTimeoutMs = options.fetchTimeoutMs || (this.clock.isVirtual ? BUSY_LOOP_MS : 30000);
    this.realTimeoutMs = options.realTimeoutMs || (this.clock.isVirtual ? BUSY_LOOP_MS : 60000);
    this.codePath = options.codePath ? path.resolve(options.codePath) : null;
    this.htmlDir = options.htmlDir
      ? path.resolve(options.htmlDir)
      : this.codePath
        ? path.dirname(this.codePath)
        : null;
    this.users = {
      owner: (options.users && options.users.owner) || 'owner@example.com',
      active: (options.users && (options.users.active || options.users.owner)) || 'owner@example.com',
    };
    this._loadManifest(options.manifestPath);
    this.timeZone = options.timeZone || (this.manifest && this.manifest.timeZone) || 'Etc/UTC';
    // A manifest with urlFetchWhitelist restricts every fetch to it (url-allowlist.js); without one,
    // nothing is restricted (a test deployment). enforceUrlFetchWhitelist: false turns the check off.
    const whitelist = this.manifest ? this.manifest.urlFetchWhitelist : undefined;
    this.urlFetchAllowlist =
      options.enforceUrlFetchWhitelist !== false && whitelist !== undefined
        ? new UrlAllowlist(whitelist)
        : null;
    this.addon = options.addon !== false;
    this.addonName = options.addonName || 'Add-on';
    this.scriptId = options.scriptId || '1EmuLatedScriptId0000000000000000000000000000000000000';
    this.authorizationRequired = !!options.authorizationRequired;
    // Granular consent: the scopes the user granted (default: every scope of the manifest).
    this.grantedScopes = Array.isArray(options.grantedScopes) ? options.grantedScopes.slice() : null;
    this._fetchQuota = new FetchQuota(this.clock, options.urlFetchDailyQuota);
    // The Gmail advanced service: a global only when the manifest (or the option) enables it.
    this.gmailSymbol =
      gmailSymbol(this.manifest) || ((options.advancedServices || []).includes('gmail') ? 'Gmail' : null);
    this.gmail = new GmailMailboxes(this, {
      incoming: options.gmailIncoming || null,
      unitsPerMinute: options.gmailUnitsPerMinute,
      queryMaxChars: options.gmailQueryMaxChars,
    });
    this.gmailLatencyMs = options.gmailLatencyMs === undefined ? 50 : options.gmailLatencyMs;
    // Google documents getUserTriggers(spreadsheet) as the user's triggers "in the given spreadsheet"; a
    // time-driven trigger has no source document (getTriggerSourceId() is null), so whether it is listed is
    // not documented: tests can run both ways.
    this.userTriggersListClock = options.userTriggersListClock !== false;
    this._random = mulberry32(options.seed === undefined ? 1 : options.seed);

    this._model = new SpreadsheetModel({
      id: options.spreadsheetId || '1EmuLatedSpreadsheetId00000000000000000000000',
      name: options.spreadsheetName || 'Untitled spreadsheet',
      timeZone: this.timeZone,
      now: () => this.clock.now(),
    });
    this._model.listeners.structure.push((sheet, axis, at, delta) =>
      this._shiftFormulas(sheet, axis, at, delta),
    );
    this._model.listeners.move.push((moved, axis, map) => {
      for (const sheet of this._model.sheets)
        for (const row of sheet.rows)
          for (const cell of row || [])
            if (cell && cell.f) cell.f = moveFormula(cell.f, sheet.name, moved.name, axis, map);
    });
    this._stores = {
      document: new PropertyStore('document'),
      script: new PropertyStore('script'),
      users: new Map(),
    };
    this.cache = new CacheStores(this.clock, this._random);
    if (options.cacheEvictionRate) this.cache.setEvictionRate(options.cacheEvictionRate);
    this.locks = new LockManager(this.clock);
    this._testLocks = new Set();
    this._triggers = new TriggerStore(this);
    this.ui = new UiRecorder(this.clock);
    this.stats = emptyStats();
    this.logs = [];
    this.fetchLog = [];
    /** Optional test hook, called (test side) after each fetch/fetchAll with its fetchLog entries. */
    this.onFetch = null;
    /** Test hook: what happens elsewhere while the script sleeps (another execution runs), given the ms slept. */
    this.onSleep = null;
    /** Test hook, called (test side) before each service call of the script with its label and arguments. */
    this.beforeCall = null;
    this.executions = [];
    this.warnings = [];
    this._seq = 0;
    this._functionNames = null;
    this._script = null;
    this._fetch = null;
    this._testEnv = { emu: this, exec: null };
    this.spreadsheet = new Spreadsheet(this._testEnv);
    this.currentExecution = null;
  }

  /* ------------------------------------------------------------ configuration and inspection */

  _loadManifest(manifestPath) {
    this.manifest = null;
    this._scopes = null;
    const file =
      manifestPath === false
        ? null
        : manifestPath || (this.htmlDir && path.join(this.htmlDir, 'appsscript.json'));
    if (file && fs.existsSync(file)) {
      this.manifest = JSON.parse(fs.readFileSync(file, 'utf8'));
      if (Array.isArray(this.manifest.oauthScopes)) this._scopes = this.manifest.oauthScopes.slice();
    }
  }

  /** True when the manifest grants one of the scopes (always true without a manifest) and the user did. */
  _hasScope(...scopes) {
    const declared = (s) => !this._scopes || this._scopes.includes(s);
    return scopes.some((s) => declared(s) && this._granted(s));
  }

  /** True when the user granted the scope (granular consent: `grantedScopes`; by default every one). */
  _granted(scope) {
    return !this.grantedScopes || this.grantedScopes.includes(scope);
  }

  /** The scopes the user granted among the manifest's. */
  _grantedScopes() {
    const all = this._scopes ? this._scopes.slice() : [];
    return this.grantedScopes ? all.filter((s) => this.grantedScopes.includes(s)) : all;
  }

  /** The daily URL Fetch quota of a user: `{ used, resetsAt }`; `fetchQuotaUsed(n)` sets the calls used today. */
  fetchQuota(user = this.users.active) {
    return this._fetchQuota.of(user);
  }

  setFetchQuotaUsed(used, user = this.users.active) {
    this._fetchQuota.setUsed(user, used);
  }

  get source() {
    if (this.options.code !== undefined) return String(this.options.code);
    if (!this.codePath) throw new Error('emulator: give codePath or code');
    return fs.readFileSync(this.codePath, 'utf8');
  }

  /** Re-reads codePath (after a rebuild). */
  reload() {
    this._script = null;
    this._functionNames = null;
  }

  _compiled() {
    if (!this._script) {
      this._script = new vm.Script(this.source, { filename: this.codePath || 'Code.js' });
    }
    return this._script;
  }

  _userStore(email) {
    if (!this._stores.users.has(email)) this._stores.users.set(email, new PropertyStore(`user:${email}`));
    return this._stores.users.get(email);
  }

  /** { user (active user's), owner (owner's user properties), document, script, forUser(email) } */
  get properties() {
    return {
      user: this._userStore(this.users.active),
      owner: this._userStore(this.users.owner),
      document: this._stores.document,
      script: this._stores.script,
      forUser: (email) => this._userStore(email),
    };
  }

  /** The trigger records ({ id, handler, eventType, user, schedule, nextRunMs, fired, ... }). */
  get triggers() {
    return this._triggers.list;
  }

  setActiveUser(email) {
    this.users.active = email;
  }

  _user(email) {
    return new User(this._testEnv, email);
  }

  _fetcher() {
    if (!this._fetch) this._fetch = new SyncFetcher();
    return this._fetch;
  }

  _uuid() {
    const b = Array.from({ length: 16 }, () => Math.floor(this._random() * 256));
    b[6] = (b[6] & 0x0f) | 0x40;
    b[8] = (b[8] & 0x3f) | 0x80;
    const h = b.map((x) => x.toString(16).padStart(2, '0')).join('');
    return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
  }

  _count(group, label, kind) {
    this.stats.calls[label] = (this.stats.calls[label] || 0) + 1;
    const g = this.stats[group];
    if (!g || group === 'urlFetch') return;
    g.calls++;
    if (kind === 'read') g.reads++;
    else if (kind === 'write') g.writes++;
  }

  /** Cost model: charges one script call to its execution's virtual clock (may end it at its limit). */
  _charge(exec, group, label, kind) {
    if (!this.costModel) return;
    const ms = this.costModel.record(this.stats.cost, this.costModel.chargeOf(exec, group, label, kind));
    if (ms > 0) exec.spend(ms);
  }

  /** Virtual ms of one Gmail call ('list' | 'get'): the cost model's figure, else gmailLatencyMs. */
  _gmailLatency(method) {
    return this.costModel ? this.costModel.costs[`gmail.${method}`] : this.gmailLatencyMs;
  }

  /** Cost model: time the script spent outside the table (a sleep, a fetch), for the totals only. */
  _chargeTime(type, ms) {
    if (this.costModel) CostModel.add(this.stats.cost, type, ms);
  }

  resetStats() {
    this.stats = emptyStats();
  }

  /** Number of calls of one method by the script, e.g. callCount('Range.getValues'). */
  callCount(label) {
    return this.stats.calls[label] || 0;
  }

  dispose() {
    if (this._fetch) this._fetch.dispose();
    this._fetch = null;
  }

  /* ------------------------------------------------------------ executions */

  _globals(env) {
    return {
      SpreadsheetApp: new SpreadsheetAppService(env),
      PropertiesService: new PropertiesServiceImpl(env),
      CacheService: new CacheServiceImpl(env),
      LockService: new LockServiceImpl(env),
      ScriptApp: new ScriptAppService(env),
      HtmlService: new HtmlServiceImpl(env),
      UrlFetchApp: new UrlFetchAppImpl(env),
      Utilities: new UtilitiesImpl(env),
      Session: new SessionImpl(env),
      Logger: new LoggerImpl(env),
      console: new ConsoleImpl(env),
      Charts: createChartsService(),
      ...(this.gmailSymbol ? { [this.gmailSymbol]: createGmailService(env) } : {}),
    };
  }

  /**
   * The real-time guard of one execution. On a virtual clock a loop that calls no service never reaches the
   * limit, so the guard stops it after realTimeoutMs. On a real clock (the playground) real time is the
   * execution's own time: Apps Script's limit ends it (a dialog waiting for the user counts, as in Sheets,
   * but is not a busy loop), so the guard gives the execution its whole limit first.
   */
  _guardMs(exec) {
    if (this.clock.isVirtual) return this.realTimeoutMs;
    return Math.max(this.realTimeoutMs, exec.limitMs + GUARD_MARGIN_MS);
  }

  /** Creates a fresh context with the Apps Script globals and evaluates the script's top level in it. */
  _prepare(exec) {
    const realm = new Realm(() => this.clock.now(), { realTimeoutMs: this._guardMs(exec) });
    exec.realm = realm;
    const env = { emu: this, exec };
    const globals = this._globals(env);
    for (const [k, v] of Object.entries(globals)) realm.define(k, v);
    realm.bindGlobals();
    realm.run(this._compiled());
    if (!this._functionNames) this._functionNames = this._collectFunctions(realm);
    return { realm, env, globals };
  }

  _collectFunctions(realm) {
    const names = new Map();
    for (const k of Object.keys(realm.sandbox)) {
      if (typeof realm.sandbox[k] === 'function') names.set(k.toUpperCase(), k);
    }
    return names;
  }

  /** Map UPPERCASE -> name of the script's top-level functions (probing the script once if needed). */
  _scriptFunctionNames() {
    if (!this._functionNames) {
      const exec = new Execution(this, {
        id: 'probe',
        name: '(probe)',
        kind: 'custom',
        authMode: 'CUSTOM_FUNCTION',
        user: '',
        effectiveUser: this.users.owner,
      });
      try {
        this._prepare(exec);
      } catch {
        this._functionNames = null;
        return new Map();
      }
    }
    return this._functionNames;
  }

  _execute(spec, body) {
    const exec = new Execution(this, { id: ++this._seq, ...spec });
    const record = {
      id: exec.id,
      name: spec.name,
      kind: spec.kind,
      authMode: spec.authMode,
      user: spec.user,
      startMs: exec.startMs,
      endMs: null,
      status: 'running',
      error: null,
    };
    this.executions.push(record);
    this.stats.executions++;
    const previous = this.currentExecution;
    this.currentExecution = exec;
    try {
      const prepared = this._prepare(exec);
      const value = body(prepared, exec);
      if (exec.timedOut) throw new AppsScriptError(TIME_LIMIT_MESSAGE);
      record.status = 'completed';
      return value;
    } catch (e) {
      if (exec.authorizationPrompt) {
        // ScriptApp.requireScopes ended the execution with Google's consent prompt: not a failure.
        record.status = 'authorization prompt';
        return undefined;
      }
      const err = toMainError(e, exec);
      record.status = err.timedOut ? 'timed out' : 'failed';
      record.error = err.message;
      err.execution = record;
      throw err;
    } finally {
      this._flushAtEnd(exec);
      record.endMs = this.clock.now();
      exec.heldLocks.clear();
      this.currentExecution = previous;
    }
  }

  /** Apps Script commits the write-back cache when an execution ends: the model charges that flush. */
  _flushAtEnd(exec) {
    if (!this.costModel || !exec.pendingSheetWrites) return;
    exec.pendingSheetWrites = false;
    this.clock.advance(this.costModel.record(this.stats.cost, ['spreadsheet.flush']));
  }

  _lookup(realm, name, kind) {
    const fn = realm.sandbox[name];
    if (typeof fn !== 'function' || (kind === 'webapp' && String(name).endsWith('_'))) {
      throw new AppsScriptError(`Script function not found: ${name}`);
    }
    return fn;
  }

  /**
   * Runs one top-level function as one execution and returns its result (JSON-cloned; for 'webapp' a
   * result holding a Date arrives as null, as with google.script.run).
   * @param {string} name
   * @param {Array|function(object): Array} [args] or a function receiving the execution's globals
   *   ({ SpreadsheetApp, ScriptApp, ... }) that builds the arguments (event objects)
   * @param {{kind?: 'menu'|'trigger'|'webapp'|'simple', authMode?: 'NONE'|'LIMITED'|'FULL', triggerType?: string, user?: string}} [options]
   */
  run(name, args = [], options = {}) {
    const kind = options.kind || 'menu';
    if (kind === 'custom') return this.runCustomFunction(name, typeof args === 'function' ? [] : args);
    const authMode = options.authMode || 'FULL';
    const user = options.user || this.users.active;
    if (kind === 'webapp' && Array.isArray(args)) {
      args.forEach((a, i) => {
        if (hasIllegalValue(a)) throw new Error(`Failed due to illegal value in property: ${i}`);
      });
    }
    return this._execute(
      {
        name,
        kind,
        authMode,
        user,
        effectiveUser: user,
        triggerType: options.triggerType || (kind === 'trigger' ? 'CLOCK' : null),
      },
      ({ realm, globals }, exec) => {
        const fn = this._lookup(realm, name, kind);
        const list = typeof args === 'function' ? args(globals, exec) : args;
        const result = realm.call(
          fn,
          list.map((a) => realm.in(a)),
        );
        if (exec.timedOut) return undefined;
        const out = fromRealm(result);
        if (out === undefined) return undefined;
        if (kind === 'webapp' && hasIllegalValue(out)) {
          this.warnings.push(
            `${name} returned a value google.script.run cannot pass (a Date?): the client gets null`,
          );
          return null;
        }
        return JSON.parse(JSON.stringify(out));
      },
    );
  }

  /**
   * Runs a custom function as Sheets does for one formula cell: 30 s limit, AuthMode.CUSTOM_FUNCTION,
   * read-only spreadsheet, no UI, the owner's user properties. Returns the value (Dates kept) or throws the
   * error Sheets would show as #ERROR!.
   */
  runCustomFunction(name, args = [], { cell = null } = {}) {
    return this._execute(
      {
        name,
        kind: 'custom',
        authMode: 'CUSTOM_FUNCTION',
        user: '',
        effectiveUser: this.users.owner,
        cell,
      },
      ({ realm }, exec) => {
        let fnName = name;
        if (typeof realm.sandbox[fnName] !== 'function') {
          fnName = this._functionNames && this._functionNames.get(String(name).toUpperCase());
        }
        if (!fnName || typeof realm.sandbox[fnName] !== 'function') {
          throw new AppsScriptError(`Unknown function: '${name}'.`);
        }
        const result = realm.call(
          realm.sandbox[fnName],
          args.map((a) => realm.in(a)),
        );
        if (exec.timedOut) return undefined;
        return fromRealm(result);
      },
    );
  }

  /** onOpen as Sheets runs it when the file opens (simple trigger; NONE before the add-on is used in it). */
  open({ authMode = 'LIMITED', handler = 'onOpen' } = {}) {
    return this.run(handler, (g) => [this._openEvent(g, authMode)], { kind: 'simple', authMode });
  }

  /** onInstall, as after installing the add-on from the Marketplace (AuthMode.FULL). */
  install({ handler = 'onInstall' } = {}) {
    return this.run(handler, (g) => [this._openEvent(g, 'FULL')], { kind: 'simple', authMode: 'FULL' });
  }

  _openEvent(g, authMode) {
    const e = { authMode: AuthMode[authMode] };
    if (authMode !== 'NONE') {
      e.source = new Spreadsheet(g.SpreadsheetApp._env);
      e.user = new User(g.SpreadsheetApp._env, this.users.active);
    }
    return e;
  }

  /* ------------------------------------------------------------ triggers */

  _triggerRecord(t) {
    if (t && t._t) return t._t;
    if (typeof t === 'string') return this._triggers.list.find((x) => x.id === t);
    return t;
  }

  /**
   * Runs a trigger's handler as a 'trigger' execution of the trigger's user. Returns
   * { trigger, status: 'completed'|'failed'|'timed out', error, result } — trigger failures are not
   * thrown (nobody sees them in Apps Script either).
   */
  fireTrigger(trigger, { event = {} } = {}) {
    const t = this._triggerRecord(trigger);
    if (!t || !this._triggers.list.includes(t)) throw new Error('emulator: unknown trigger');
    const now = this.clock.now();
    if (t.eventType === 'CLOCK') this._triggers.advance(t, now);
    else t.fired++;
    const makeEvent = (g) => {
      const base = { authMode: AuthMode.FULL, triggerUid: t.id };
      if (t.eventType === 'CLOCK') {
        const p = zonedParts(now, 'Etc/UTC');
        Object.assign(base, {
          year: p.year,
          month: p.month,
          'day-of-month': p.day,
          'day-of-week': p.weekday === 0 ? 7 : p.weekday,
          hour: p.hour,
          minute: p.minute,
          second: p.second,
          timezone: 'UTC',
        });
      } else {
        base.source = new Spreadsheet(g.SpreadsheetApp._env);
        base.user = new User(g.SpreadsheetApp._env, t.user);
      }
      return [Object.assign(base, event)];
    };
    const out = {
      trigger: t.id,
      handler: t.handler,
      atMs: now,
      status: 'completed',
      error: null,
      result: undefined,
    };
    try {
      out.result = this.run(t.handler, makeEvent, {
        kind: 'trigger',
        authMode: 'FULL',
        user: t.user,
        triggerType: t.eventType,
      });
    } catch (e) {
      out.status = e.timedOut ? 'timed out' : 'failed';
      out.error = e.message;
    }
    return out;
  }

  /** Fires every time-driven trigger due now (in due order). */
  fireDueTriggers() {
    return this._triggers.due(this.clock.now()).map((t) => this.fireTrigger(t));
  }

  /** Moves the virtual clock forward by ms, firing time-driven triggers when they come due. */
  advanceTime(ms, { fireTriggers = true } = {}) {
    const target = this.clock.now() + ms;
    const fired = [];
    if (fireTriggers) {
      for (;;) {
        const next = this._triggers.nextDueMs();
        if (next === null || next > target) break;
        if (next > this.clock.now()) this.clock.set(next);
        fired.push(...this.fireDueTriggers());
      }
    }
    if (target > this.clock.now()) this.clock.set(target);
    return fired;
  }

  /* ------------------------------------------------------------ sheets from tests */

  /**
   * The Apps Script globals bound to the test side (not counted, no restrictions), e.g.
   * emu.services.SpreadsheetApp.newFilterCriteria(), emu.services.Utilities.formatDate(...).
   */
  get services() {
    if (!this._testServices) this._testServices = this._globals(this._testEnv);
    return this._testServices;
  }

  /** A Sheet of the emulated spreadsheet (test side: not counted, no restrictions). */
  sheet(name) {
    return name === undefined ? this.spreadsheet.getActiveSheet() : this.spreadsheet.getSheetByName(name);
  }

  /** A Range by A1 ('Sheet1!A1:B2' or on the active sheet). */
  range(a1) {
    return rangeFromA1(this._testEnv, a1);
  }

  /** Selects ranges as the user would (the last one holds the current cell). */
  select(...a1s) {
    const ranges = a1s.map((a) => this.range(a));
    const sheet = ranges[0]._sheet;
    this._model.select(
      sheet,
      ranges.map((r) => ({ row: r._row, col: r._col, numRows: r._numRows, numCols: r._numCols })),
    );
    return this;
  }

  /** Types a formula into a cell (test side), to be evaluated by recalculate(). */
  setFormula(a1, formula) {
    const r = this.range(a1);
    r._sheet.writeFormula(r._row, r._col, formula);
    return this;
  }

  /**
   * Evaluates custom-function formulas as Sheets would: all of them (as when the file opens) or, with
   * { dirtyOnly: true }, those written or moved since the last pass. Returns [{ cell, rows, columns } | { cell, error }].
   */
  recalculate(options) {
    return recalculate(this, options);
  }

  _shiftFormulas(changed, axis, at, delta) {
    for (const sheet of this._model.sheets) {
      for (const row of sheet.rows) {
        if (!row) continue;
        for (const cell of row) {
          if (cell && cell.f) cell.f = shiftFormula(cell.f, sheet.name, changed.name, axis, at, delta);
        }
      }
    }
  }

  /* ------------------------------------------------------------ snapshot */

  /** JSON of every sheet, the UI records and the triggers (for the playground and for debugging). */
  snapshot() {
    const ss = this._model;
    const tz = ss.timeZone;
    const sel = ss.selection;
    const jsonValue = (v) => (isDate(v) ? { date: v.toISOString() } : v);
    const sheets = ss.sheets.map((sheet, index) => {
      let rows = 0;
      let cols = 0;
      sheet.rows.forEach((row, r) => {
        if (!row) return;
        row.forEach((cell, c) => {
          if (
            cell &&
            ((cell.v !== '' && cell.v !== undefined) ||
              cell.f ||
              cell.note ||
              cell.fmt ||
              cell.style ||
              cell.validation)
          ) {
            rows = Math.max(rows, r + 1);
            cols = Math.max(cols, c + 1);
          }
        });
      });
      const grid = (fn) =>
        Array.from({ length: rows }, (_, r) =>
          Array.from({ length: cols }, (_, c) => fn(sheet.cell(r + 1, c + 1))),
        );
      const hiddenRows = [];
      const filteredRows = [];
      for (let r = 1; r <= Math.max(rows, sheet.rowMeta.length); r++) {
        if (sheet.isRowHiddenByUser(r)) hiddenRows.push(r);
        if (sheet.isRowHiddenByFilter(r)) filteredRows.push(r);
      }
      const f = sheet.filter;
      return {
        name: sheet.name,
        sheetId: sheet.sheetId,
        index,
        maxRows: sheet.maxRows,
        maxColumns: sheet.maxCols,
        lastRow: sheet.lastRow(),
        lastColumn: sheet.lastColumn(),
        frozenRows: sheet.frozenRows,
        frozenColumns: sheet.frozenColumns,
        hidden: sheet.hidden,
        tabColor: sheet.tabColor,
        values: grid((cell) => (cell ? jsonValue(cell.v) : '')),
        displayValues: grid((cell) => (cell ? displayValue(cell.v, cell.fmt, tz) : '')),
        formulas: grid((cell) => (cell && cell.f) || ''),
        notes: grid((cell) => (cell && cell.note) || ''),
        numberFormats: grid((cell) => (cell && cell.fmt) || 'General'),
        styles: grid((cell) => (cell && cell.style) || null),
        errors: grid((cell) => (cell && cell.error) || null),
        // Formulas the emulator does not evaluate (value ''), with why: builtin-formulas.js.
        unevaluated: grid((cell) => (cell && cell.f && cell.unevaluated) || null),
        checkboxes: grid((cell) => Boolean(cell && cell.validation === 'checkbox')),
        hiddenRows,
        filteredRows,
        filter: f
          ? {
              range: toA1(f.row, f.col, f.numRows, f.numCols),
              criteria: Object.fromEntries([...f.criteria].map(([c, v]) => [c, v])),
            }
          : null,
        columnWidths: Object.fromEntries(
          sheet.colMeta.map((m, i) => [i + 1, m && m.width]).filter(([, w]) => w !== undefined && w !== null),
        ),
        charts: sheet.charts,
      };
    });
    const active = ss.activeSheet();
    return JSON.parse(
      JSON.stringify({
        clockMs: this.clock.now(),
        spreadsheet: {
          id: ss.id,
          name: ss.name,
          timeZone: tz,
          activeSheet: active.name,
          selection: sel
            ? {
                sheet: (ss.byId(sel.sheetId) || active).name,
                ranges: sel.ranges.map((r) => toA1(r.row, r.col, r.numRows, r.numCols)),
                current: toA1(sel.current.row, sel.current.col),
              }
            : { sheet: active.name, ranges: ['A1'], current: 'A1' },
          sheets,
        },
        ui: {
          menus: this.ui.menus,
          toasts: this.ui.toasts,
          alerts: this.ui.alerts,
          prompts: this.ui.prompts,
          sidebars: this.ui.sidebars,
          dialogs: this.ui.dialogs,
        },
        triggers: this._triggers.list,
        stats: this.stats,
      }),
    );
  }
}

module.exports = { AppsScriptEmulator, Clock, TIME_LIMIT_MESSAGE, mulberry32 };
