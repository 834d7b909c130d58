'use strict';
// Session: the active user (the person at the keyboard; '' in custom functions and AuthMode.NONE), the
// effective user (whose authority the script runs with), the script time zone.
const crypto = require('node:crypto');
const { instrument } = require('./execution');

class User {
  constructor(env, email) {
    this._env = env;
    this._email = email;
  }
  getEmail() {
    return this._email;
  }
  getUsername() {
    return this._email.split('@')[0];
  }
  toString() {
    return this._email;
  }
}

class SessionImpl {
  constructor(env) {
    this._env = env;
  }
  getActiveUser() {
    const { exec, emu } = this._env;
    if (!exec) return new User(this._env, emu.users.active);
    return new User(this._env, exec.authMode === 'NONE' ? '' : exec.user);
  }
  getEffectiveUser() {
    const { exec, emu } = this._env;
    return new User(
      this._env,
      exec ? (exec.authMode === 'NONE' ? '' : exec.effectiveUser) : emu.users.active,
    );
  }
  getScriptTimeZone() {
    return this._env.emu.timeZone;
  }
  getActiveUserLocale() {
    return 'en';
  }
  getTemporaryActiveUserKey() {
    const { exec, emu } = this._env;
    const who = exec ? exec.effectiveUser : emu.users.active;
    return crypto.createHash('sha256').update(`${emu.scriptId}:${who}`).digest('base64').slice(0, 40);
  }
}

instrument(SessionImpl, { label: 'Session', group: 'session' });
instrument(User, { label: 'User', group: 'session' });

module.exports = { SessionImpl, User };
