'use strict';
// PropertiesService: user (per user), document and script stores that live in the emulator across
// executions. Values are strings; 9 KB per property (key + value, UTF-8) and 500 KB per store. Custom
// functions get the owner's user properties, read-only.
const { AppsScriptError, permissionError } = require('./errors');
const { instrument } = require('./execution');

const MAX_VALUE_BYTES = 9 * 1024;
const MAX_STORE_BYTES = 500 * 1024;
const bytes = (s) => Buffer.byteLength(s, 'utf8');

/** One store. Tests may use it directly (same methods as Apps Script's Properties) or read `.data`. */
class PropertyStore {
  constructor(name) {
    this.name = name;
    this.data = new Map();
    this.peakBytes = 0; // the largest size the store reached (resetPeak() starts a new measurement)
  }
  /** Starts a new peak measurement from the store's current size. */
  resetPeak() {
    this.peakBytes = this._size();
    return this.peakBytes;
  }
  _size(map = this.data) {
    let n = 0;
    for (const [k, v] of map) n += bytes(k) + bytes(v);
    return n;
  }
  _put(map, key, value) {
    if (key === null || key === undefined || key === '') throw new AppsScriptError('Invalid argument: key');
    const k = String(key);
    const v = value === null || value === undefined ? '' : String(value);
    if (bytes(k) + bytes(v) > MAX_VALUE_BYTES) throw new AppsScriptError('Argument too large: value');
    map.set(k, v);
  }
  _commit(map) {
    const size = this._size(map);
    if (size > MAX_STORE_BYTES) {
      throw new AppsScriptError(
        'You have exceeded the property storage quota. Please remove some properties and try again.',
      );
    }
    this.data = map;
    this.peakBytes = Math.max(this.peakBytes, size);
  }
  getProperty(key) {
    const v = this.data.get(String(key));
    return v === undefined ? null : v;
  }
  setProperty(key, value) {
    const next = new Map(this.data);
    this._put(next, key, value);
    this._commit(next);
    return this;
  }
  setProperties(properties, deleteAllOthers = false) {
    const next = deleteAllOthers ? new Map() : new Map(this.data);
    for (const [k, v] of Object.entries(properties || {})) this._put(next, k, v);
    this._commit(next);
    return this;
  }
  getProperties() {
    return Object.fromEntries(this.data);
  }
  getKeys() {
    return [...this.data.keys()];
  }
  deleteProperty(key) {
    this.data.delete(String(key));
    return this;
  }
  deleteAllProperties() {
    this.data.clear();
    return this;
  }
  /** Test helper: the whole store as a plain object. */
  toJSON() {
    return Object.fromEntries(this.data);
  }
  get bytes() {
    return this._size();
  }
}

class Properties {
  constructor(env, store) {
    this._env = env;
    this._store = store;
  }
  getProperty(key) {
    return this._store.getProperty(key);
  }
  setProperty(key, value) {
    this._store.setProperty(key, value);
    return this;
  }
  setProperties(properties, deleteAllOthers) {
    this._store.setProperties(properties, deleteAllOthers);
    return this;
  }
  getProperties() {
    return this._store.getProperties();
  }
  getKeys() {
    return this._store.getKeys();
  }
  deleteProperty(key) {
    this._store.deleteProperty(key);
    return this;
  }
  deleteAllProperties() {
    this._store.deleteAllProperties();
    return this;
  }
}

class PropertiesServiceImpl {
  constructor(env) {
    this._env = env;
  }
  getUserProperties() {
    const emu = this._env.emu;
    const exec = this._env.exec;
    return new Properties(this._env, emu._userStore(exec ? exec.effectiveUser : emu.users.active));
  }
  getDocumentProperties() {
    return new Properties(this._env, this._env.emu._stores.document);
  }
  getScriptProperties() {
    return new Properties(this._env, this._env.emu._stores.script);
  }
}

function guard(exec, name, kind, self) {
  if (exec.authMode === 'NONE') {
    throw permissionError(
      self instanceof PropertiesServiceImpl ? `PropertiesService.${name}` : `Properties.${name}`,
    );
  }
  // Custom functions read the owner's user properties but may not change them ("Spreadsheet editors can't
  // set user properties in a custom function"); the emulator refuses it for every custom function, since a
  // formula may be recalculated by anyone.
  if (
    exec.authMode === 'CUSTOM_FUNCTION' &&
    kind === 'write' &&
    self instanceof Properties &&
    self._store.name.startsWith('user:')
  ) {
    throw permissionError(`Properties.${name}`);
  }
}
const classify = (name) => (/^get/.test(name) ? 'read' : /^(set|delete)/.test(name) ? 'write' : 'other');
instrument(PropertiesServiceImpl, {
  label: 'PropertiesService',
  group: 'properties',
  classify: () => 'other',
  guard,
});
instrument(Properties, { label: 'Properties', group: 'properties', classify, guard });

module.exports = { PropertyStore, PropertiesServiceImpl, MAX_VALUE_BYTES, MAX_STORE_BYTES };
