'use strict';
// ScriptApp: enums, authorization info and installable triggers with the add-on rules: time-driven
// triggers fire at most once per hour (everyMinutes throws; after()/at() sooner than an hour fire an hour
// later), one trigger of each event type per user per document, 20 per user per script. One-off triggers
// stay in the list after they fire (as in Apps Script) until the script deletes them.
const { AppsScriptError, permissionError, makeEnum } = require('./errors');
const { instrument } = require('./execution');
const { zonedParts, zonedToUtc, isValidTimeZone } = require('./timezone');

const SCOPE_SCRIPTAPP = 'https://www.googleapis.com/auth/script.scriptapp';
const HOUR = 3600000;
const DAY = 24 * HOUR;

const AuthMode = makeEnum('AuthMode', ['NONE', 'CUSTOM_FUNCTION', 'LIMITED', 'FULL']);
const AuthorizationStatus = makeEnum('AuthorizationStatus', ['REQUIRED', 'NOT_REQUIRED']);
const EventType = makeEnum('EventType', [
  'CLOCK',
  'ON_OPEN',
  'ON_EDIT',
  'ON_FORM_SUBMIT',
  'ON_CHANGE',
  'ON_EVENT_UPDATED',
]);
const TriggerSource = makeEnum('TriggerSource', ['SPREADSHEETS', 'CLOCK', 'FORMS', 'DOCUMENTS', 'CALENDAR']);
const WeekDay = makeEnum('WeekDay', [
  'SUNDAY',
  'MONDAY',
  'TUESDAY',
  'WEDNESDAY',
  'THURSDAY',
  'FRIDAY',
  'SATURDAY',
]);
const InstallationSource = makeEnum('InstallationSource', [
  'APPS_MARKETPLACE_DOMAIN_ADD_ON',
  'NONE',
  'WEB_STORE_ADD_ON',
]);

const TOO_MANY_ADDON =
  'This add-on has created too many time-based triggers in this document for this Google user account.';
const TOO_MANY_SCRIPT =
  'This script has too many triggers. Triggers must be deleted from the script before more can be added.';
const TOO_OFTEN = 'Add-ons can only create time-based triggers that run at most once per hour.';

/** The emulator-side list of triggers and the scheduling arithmetic. */
class TriggerStore {
  constructor(emu) {
    this._emu = emu;
    this.list = [];
    this._seq = 0;
  }
  create(spec) {
    const emu = this._emu;
    const mine = this.list.filter((t) => t.user === spec.user);
    if (mine.length >= 20) throw new AppsScriptError(TOO_MANY_SCRIPT);
    if (emu.addon && mine.some((t) => t.eventType === spec.eventType && t.documentId === spec.documentId)) {
      throw new AppsScriptError(spec.eventType === 'CLOCK' ? TOO_MANY_ADDON : TOO_MANY_SCRIPT);
    }
    const trigger = {
      id: String(8000000000000000000 + ++this._seq * 7919),
      createdAtMs: emu.clock.now(),
      fired: 0,
      lastRunMs: null,
      ...spec,
    };
    if (trigger.eventType === 'CLOCK') trigger.nextRunMs = this._first(trigger.schedule, trigger.createdAtMs);
    this.list.push(trigger);
    return trigger;
  }
  remove(id) {
    this.list = this.list.filter((t) => t.id !== id);
  }
  _minGap() {
    return this._emu.addon ? HOUR : 60000;
  }
  _first(s, now) {
    const gap = this._minGap();
    switch (s.kind) {
      case 'after':
        return now + Math.max(s.ms, gap);
      case 'at':
        return Math.max(s.atMs, now + gap);
      case 'minutes':
        return now + s.minutes * 60000;
      case 'hours':
        return now + s.hours * HOUR;
      case 'days':
      case 'weeks':
        return this._nextAtHour(s, now + gap - 1);
      default:
        throw new AppsScriptError('Missing time-based schedule.');
    }
  }
  _nextAtHour(s, after) {
    const tz = s.timeZone;
    const p = zonedParts(after, tz);
    const hour = s.atHour === undefined ? p.hour : s.atHour;
    const minute = s.nearMinute === undefined ? 0 : s.nearMinute;
    let t = zonedToUtc(tz, p.year, p.month, p.day, hour, minute);
    while (t <= after) t += DAY;
    if (s.kind === 'weeks' && s.weekDay !== undefined) {
      while (zonedParts(t, tz).weekday !== s.weekDay) t += DAY;
    }
    return t;
  }
  /** After a run: one-off triggers are spent; recurring ones move to their next time after `now`. */
  advance(t, now) {
    t.fired++;
    t.lastRunMs = now;
    const s = t.schedule;
    if (!s || s.kind === 'after' || s.kind === 'at') {
      t.nextRunMs = null;
      return;
    }
    const period =
      s.kind === 'minutes'
        ? s.minutes * 60000
        : s.kind === 'hours'
          ? s.hours * HOUR
          : s.kind === 'days'
            ? s.days * DAY
            : s.weeks * 7 * DAY;
    let next = t.nextRunMs + period;
    while (next <= now) next += period;
    t.nextRunMs = next;
  }
  due(now) {
    return this.list
      .filter((t) => t.eventType === 'CLOCK' && t.nextRunMs !== null && t.nextRunMs <= now)
      .sort((a, b) => a.nextRunMs - b.nextRunMs);
  }
  nextDueMs() {
    const times = this.list
      .filter((t) => t.eventType === 'CLOCK' && t.nextRunMs !== null)
      .map((t) => t.nextRunMs);
    return times.length ? Math.min(...times) : null;
  }
}

class Trigger {
  constructor(env, record) {
    this._env = env;
    this._t = record;
  }
  getHandlerFunction() {
    return this._t.handler;
  }
  getUniqueId() {
    return this._t.id;
  }
  getEventType() {
    return EventType[this._t.eventType];
  }
  getTriggerSource() {
    return TriggerSource[this._t.eventType === 'CLOCK' ? 'CLOCK' : 'SPREADSHEETS'];
  }
  getTriggerSourceId() {
    return this._t.eventType === 'CLOCK' ? null : this._t.documentId;
  }
}

class TriggerBuilder {
  constructor(env, handler) {
    this._env = env;
    this._handler = handler;
  }
  timeBased() {
    return new ClockTriggerBuilder(this._env, this._handler);
  }
  forSpreadsheet(spreadsheet) {
    const id = typeof spreadsheet === 'string' ? spreadsheet : spreadsheet.getId();
    if (id !== this._env.emu._model.id)
      throw permissionError('ScriptApp.newTrigger', 'https://www.googleapis.com/auth/spreadsheets');
    return new SpreadsheetTriggerBuilder(this._env, this._handler);
  }
}

function createRecord(env, spec) {
  const { emu, exec } = env;
  const user = exec ? exec.effectiveUser : emu.users.active;
  return emu._triggers.create({ user, documentId: emu._model.id, ...spec });
}

class ClockTriggerBuilder {
  constructor(env, handler) {
    this._env = env;
    this._handler = handler;
    this._s = { kind: null, timeZone: env.emu.timeZone };
  }
  after(durationMilliseconds) {
    Object.assign(this._s, { kind: 'after', ms: Number(durationMilliseconds) });
    return this;
  }
  at(instant) {
    Object.assign(this._s, { kind: 'at', atMs: instant.getTime() });
    return this;
  }
  atDate(year, month, day) {
    Object.assign(this._s, { kind: 'at', atMs: zonedToUtc(this._s.timeZone, year, month, day) });
    return this;
  }
  everyMinutes(n) {
    if (this._env.emu.addon) throw new AppsScriptError(TOO_OFTEN);
    if (![1, 5, 10, 15, 30].includes(n))
      throw new AppsScriptError('The value for minutes must be 1, 5, 10, 15 or 30.');
    Object.assign(this._s, { kind: 'minutes', minutes: n });
    return this;
  }
  everyHours(n) {
    if (![1, 2, 4, 6, 8, 12].includes(n))
      throw new AppsScriptError('The value for hours must be 1, 2, 4, 6, 8 or 12.');
    Object.assign(this._s, { kind: 'hours', hours: n });
    return this;
  }
  everyDays(n) {
    Object.assign(this._s, { kind: 'days', days: n });
    return this;
  }
  everyWeeks(n) {
    Object.assign(this._s, { kind: 'weeks', weeks: n });
    return this;
  }
  onWeekDay(day) {
    this._s.weekDay = WeekDay[String(day)].ordinal();
    return this;
  }
  atHour(hour) {
    if (!(hour >= 0 && hour <= 23)) throw new AppsScriptError('Invalid argument: hour');
    this._s.atHour = hour;
    return this;
  }
  nearMinute(minute) {
    this._s.nearMinute = Math.floor(minute / 15) * 15;
    return this;
  }
  inTimezone(timezone) {
    if (!isValidTimeZone(timezone)) throw new AppsScriptError(`Invalid argument: timezone`);
    this._s.timeZone = timezone;
    return this;
  }
  create() {
    if (!this._s.kind) throw new AppsScriptError('Missing time-based schedule.');
    return new Trigger(
      this._env,
      createRecord(this._env, { handler: this._handler, eventType: 'CLOCK', schedule: { ...this._s } }),
    );
  }
}

class SpreadsheetTriggerBuilder {
  constructor(env, handler) {
    this._env = env;
    this._handler = handler;
    this._type = null;
  }
  onOpen() {
    this._type = 'ON_OPEN';
    return this;
  }
  onEdit() {
    this._type = 'ON_EDIT';
    return this;
  }
  onChange() {
    this._type = 'ON_CHANGE';
    return this;
  }
  onFormSubmit() {
    this._type = 'ON_FORM_SUBMIT';
    return this;
  }
  create() {
    if (!this._type) throw new AppsScriptError('Missing event type.');
    return new Trigger(
      this._env,
      createRecord(this._env, { handler: this._handler, eventType: this._type, schedule: null }),
    );
  }
}

class AuthorizationInfo {
  /** `scopes`: the scopes asked about (getAuthorizationInfo(authMode, oAuthScopes)), or null for all of the script's. */
  constructor(env, required, scopes) {
    this._env = env;
    this._scopes = scopes;
    const emu = env.emu;
    const asked = scopes || (emu._scopes ? emu._scopes : []);
    this._required = required || asked.some((s) => !emu._granted(s));
  }
  getAuthorizationStatus() {
    return this._required ? AuthorizationStatus.REQUIRED : AuthorizationStatus.NOT_REQUIRED;
  }
  getAuthorizationUrl() {
    return this._required ? `https://script.google.com/macros/d/${this._env.emu.scriptId}/authorize` : null;
  }
  /** The granted scopes (among those asked about, when a list was given). */
  getAuthorizedScopes() {
    const emu = this._env.emu;
    if (emu.authorizationRequired) return [];
    return this._scopes ? this._scopes.filter((s) => emu._hasScope(s)) : emu._grantedScopes();
  }
}

class ScriptAppService {
  constructor(env) {
    this._env = env;
    Object.assign(this, {
      AuthMode,
      AuthorizationStatus,
      EventType,
      TriggerSource,
      WeekDay,
      InstallationSource,
    });
  }
  _own() {
    const { emu, exec } = this._env;
    const user = exec ? exec.effectiveUser : emu.users.active;
    return emu._triggers.list.filter((t) => t.user === user);
  }
  newTrigger(functionName) {
    return new TriggerBuilder(this._env, String(functionName));
  }
  getProjectTriggers() {
    return this._own().map((t) => new Trigger(this._env, t));
  }
  getUserTriggers(document) {
    const id = document && document.getId ? document.getId() : String(document);
    return this._own()
      .filter((t) => t.documentId === id)
      .filter((t) => t.eventType !== 'CLOCK' || this._env.emu.userTriggersListClock)
      .map((t) => new Trigger(this._env, t));
  }
  deleteTrigger(trigger) {
    const id = trigger && trigger._t ? trigger._t.id : null;
    if (!this._own().some((t) => t.id === id)) throw new AppsScriptError('Trigger not found.');
    this._env.emu._triggers.remove(id);
  }
  getAuthorizationInfo(_authMode, oAuthScopes) {
    const scopes = Array.isArray(oAuthScopes) ? oAuthScopes.map(String) : null;
    return new AuthorizationInfo(this._env, this._env.emu.authorizationRequired, scopes);
  }
  /**
   * Ends the execution with a consent prompt when a scope is not granted (recorded in emu.ui.authPrompts);
   * the execution stops as if it returned.
   */
  requireScopes(_authMode, oAuthScopes) {
    const emu = this._env.emu;
    const missing = (oAuthScopes || []).map(String).filter((s) => !emu._granted(s));
    if (missing.length === 0 && !emu.authorizationRequired) return;
    emu.ui.authPrompts.push({ scopes: missing, atMs: emu.clock.now() });
    if (this._env.exec) this._env.exec.authorizationPrompt = true;
    throw new AuthorizationPromptEnd();
  }
  requireAllScopes(authMode) {
    return this.requireScopes(authMode, this._env.emu._scopes || []);
  }
  getOAuthToken() {
    return 'ya29.emulated-oauth-token';
  }
  getScriptId() {
    return this._env.emu.scriptId;
  }
  getInstallationSource() {
    return InstallationSource.WEB_STORE_ADD_ON;
  }
}

const OPEN_METHODS = new Set([
  'getAuthorizationInfo',
  'requireScopes',
  'requireAllScopes',
  'getScriptId',
  'getInstallationSource',
]);

/** requireScopes ended the execution with the consent prompt (the emulator's run treats it as a return). */
class AuthorizationPromptEnd extends AppsScriptError {
  constructor() {
    super('Authorization is required to perform that action.');
    this.authorizationPrompt = true;
  }
}

function guard(exec, name, kind, self) {
  if (self instanceof ScriptAppService && OPEN_METHODS.has(name)) return;
  if (self instanceof AuthorizationInfo || self instanceof Trigger) return;
  const label = self instanceof ScriptAppService ? `ScriptApp.${name}` : `ScriptApp.newTrigger`;
  if (exec.authMode !== 'FULL' || !exec.emu._hasScope(SCOPE_SCRIPTAPP))
    throw permissionError(label, SCOPE_SCRIPTAPP);
}

instrument(ScriptAppService, { label: 'ScriptApp', group: 'scriptApp', guard });
instrument(Trigger, { label: 'Trigger', group: 'scriptApp' });
instrument(TriggerBuilder, { label: 'TriggerBuilder', group: 'scriptApp', classify: () => 'other', guard });
instrument(ClockTriggerBuilder, {
  label: 'ClockTriggerBuilder',
  group: 'scriptApp',
  classify: () => 'other',
  guard,
});
instrument(SpreadsheetTriggerBuilder, {
  label: 'SpreadsheetTriggerBuilder',
  group: 'scriptApp',
  classify: () => 'other',
  guard,
});
instrument(AuthorizationInfo, { label: 'AuthorizationInfo', group: 'scriptApp' });

module.exports = {
  AuthorizationPromptEnd,
  ScriptAppService,
  TriggerStore,
  Trigger,
  AuthMode,
  AuthorizationStatus,
  EventType,
  TOO_MANY_ADDON,
  TOO_MANY_SCRIPT,
  TOO_OFTEN,
};
