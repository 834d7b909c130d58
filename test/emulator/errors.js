'use strict';
// Errors and enums shared by every emulated service.

/**
 * An error as an Apps Script service throws it. Inside an execution it is re-created in the script's realm
 * with name 'Exception' (String(e) === 'Exception: <message>', as Apps Script logs it).
 */
class AppsScriptError extends Error {
  constructor(message) {
    super(message);
    this.name = 'Exception';
  }
}

/** The error of an execution stopped by its time limit (6 min, or 30 s for custom functions). */
const TIME_LIMIT_MESSAGE = 'Exceeded maximum execution time';

class TimeLimitError extends AppsScriptError {
  constructor() {
    super(TIME_LIMIT_MESSAGE);
    this.timeLimit = true;
  }
}

function permissionError(what, scope) {
  return new AppsScriptError(
    `You do not have permission to call ${what}` + (scope ? `. Required permissions: ${scope}` : ''),
  );
}

function signatureError(service, method, args) {
  const types = args.map(typeName).join(',');
  return new AppsScriptError(
    `The parameters (${types}) don't match the method signature for ${service}.${method}.`,
  );
}

function typeName(v) {
  if (v === null) return 'null';
  if (v === undefined) return 'undefined';
  if (Array.isArray(v)) return v.length && Array.isArray(v[0]) ? 'number[][]' : 'Object[]';
  if (Object.prototype.toString.call(v) === '[object Date]') return 'Date';
  if (typeof v === 'string') return 'String';
  if (typeof v === 'number') return 'number';
  if (typeof v === 'boolean') return 'Boolean';
  return 'Object';
}

/** An Apps Script enum value: compared by identity, String(value) is its name. */
class EnumValue {
  constructor(type, name, ordinal) {
    this._type = type;
    this._name = name;
    this._ordinal = ordinal;
  }
  name() {
    return this._name;
  }
  ordinal() {
    return this._ordinal;
  }
  toString() {
    return this._name;
  }
  toJSON() {
    return this._name;
  }
}

/** Builds a frozen enum object { NAME: EnumValue, ... }. */
function makeEnum(type, names) {
  const out = {};
  names.forEach((n, i) => (out[n] = Object.freeze(new EnumValue(type, n, i))));
  return Object.freeze(out);
}

module.exports = {
  AppsScriptError,
  TimeLimitError,
  TIME_LIMIT_MESSAGE,
  permissionError,
  signatureError,
  EnumValue,
  makeEnum,
};
