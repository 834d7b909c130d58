'use strict';
// LockService. Executions run one at a time here, so "another execution holds the lock" is simulated with
// emu.locks.holdByOther(type, ms): tryLock(timeout) then waits on the virtual clock, and gets the lock if
// the other holder releases it in time, else returns false after the timeout (waitLock throws).
const { AppsScriptError, permissionError } = require('./errors');
const { instrument } = require('./execution');

const LOCK_TIMEOUT_MESSAGE = 'Lock timeout: another process was holding the lock for too long.';

class LockManager {
  constructor(clock) {
    this._clock = clock;
    this.others = new Map(); // key -> release time (ms, may be Infinity)
    this.history = []; // { type, key, action, atMs, executionId }
  }
  /** Simulates another execution holding the lock of `type` ('document'|'script'|'user') for `ms`. */
  holdByOther(type, ms = Infinity, { user } = {}) {
    this.others.set(this._key(type, user), this._clock.now() + ms);
  }
  releaseOther(type, { user } = {}) {
    this.others.delete(this._key(type, user));
  }
  _key(type, user) {
    return type === 'user' ? `user:${user || '*'}` : type;
  }
  _otherUntil(type, user) {
    const now = this._clock.now();
    const keys = type === 'user' ? [this._key('user', user), 'user:*'] : [type];
    let until = 0;
    for (const k of keys) {
      const t = this.others.get(k);
      if (t !== undefined) {
        if (t <= now) this.others.delete(k);
        else until = Math.max(until, t);
      }
    }
    return until;
  }
}

class Lock {
  constructor(env, type) {
    this._env = env;
    this._type = type;
  }
  get _key() {
    const exec = this._env.exec;
    return this._type === 'user' ? `user:${exec ? exec.effectiveUser : ''}` : this._type;
  }
  _acquire(timeoutInMillis) {
    const { emu, exec } = this._env;
    const held = exec ? exec.heldLocks : emu._testLocks;
    if (held.has(this._key)) return true;
    const timeout = Math.max(0, Number(timeoutInMillis) || 0);
    const until = emu.locks._otherUntil(this._type, exec && exec.effectiveUser);
    const now = emu.clock.now();
    const spend = (ms) => (exec ? exec.spend(ms) : emu.clock.advance(ms));
    if (until > now) {
      if (until - now > timeout) {
        spend(timeout);
        emu.locks.history.push({
          type: this._type,
          action: 'timeout',
          atMs: emu.clock.now(),
          executionId: exec && exec.id,
        });
        return false;
      }
      spend(until - now);
    }
    held.add(this._key);
    emu.locks.history.push({
      type: this._type,
      action: 'acquire',
      atMs: emu.clock.now(),
      executionId: exec && exec.id,
    });
    return true;
  }
  tryLock(timeoutInMillis) {
    return this._acquire(timeoutInMillis);
  }
  waitLock(timeoutInMillis) {
    if (!this._acquire(timeoutInMillis)) throw new AppsScriptError(LOCK_TIMEOUT_MESSAGE);
  }
  hasLock() {
    const { emu, exec } = this._env;
    return (exec ? exec.heldLocks : emu._testLocks).has(this._key);
  }
  releaseLock() {
    const { emu, exec } = this._env;
    const held = exec ? exec.heldLocks : emu._testLocks;
    if (held.delete(this._key)) {
      emu.locks.history.push({
        type: this._type,
        action: 'release',
        atMs: emu.clock.now(),
        executionId: exec && exec.id,
      });
    }
  }
}

class LockServiceImpl {
  constructor(env) {
    this._env = env;
  }
  getDocumentLock() {
    return new Lock(this._env, 'document');
  }
  getScriptLock() {
    return new Lock(this._env, 'script');
  }
  getUserLock() {
    return new Lock(this._env, 'user');
  }
}

function guard(exec, name, kind, self) {
  if (exec.authMode === 'NONE') {
    throw permissionError(self instanceof LockServiceImpl ? `LockService.${name}` : `Lock.${name}`);
  }
}
instrument(LockServiceImpl, { label: 'LockService', group: 'lock', classify: () => 'other', guard });
instrument(Lock, { label: 'Lock', group: 'lock', classify: () => 'other', guard });

module.exports = { LockManager, LockServiceImpl, LOCK_TIMEOUT_MESSAGE };
