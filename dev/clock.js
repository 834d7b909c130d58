'use strict';
// One clock that several threads share (emulator, UrlFetch worker, sandbox worker): a SharedArrayBuffer
// holds [mode, value]. Real mode: now = Date.now() + value (an offset tests may advance). Virtual mode:
// now = value, moved only by advance()/set(), so an hour-long window is tested in milliseconds.

const REAL = 0;
const VIRTUAL = 1;

class Clock {
  /** @param {SharedArrayBuffer} [buffer] an existing clock's buffer, to share it across threads */
  constructor(buffer) {
    this.buffer = buffer || new SharedArrayBuffer(16);
    this.cells = new Float64Array(this.buffer);
  }

  /** A virtual clock starting at `startMs` (default 2026-01-05T09:00:00Z, a Monday morning). */
  static virtual(startMs = Date.UTC(2026, 0, 5, 9, 0, 0)) {
    const clock = new Clock();
    clock.cells[0] = VIRTUAL;
    clock.cells[1] = startMs;
    return clock;
  }

  /** The real clock (what the sandbox uses when nothing drives it). */
  static real() {
    const clock = new Clock();
    clock.cells[0] = REAL;
    return clock;
  }

  get isVirtual() {
    return this.cells[0] === VIRTUAL;
  }

  now() {
    return this.isVirtual ? this.cells[1] : Date.now() + this.cells[1];
  }

  advance(ms) {
    if (!(ms >= 0)) throw new RangeError('clock can only move forward');
    this.cells[1] += ms;
    return this.now();
  }

  set(ms) {
    this.cells[1] = this.isVirtual ? ms : ms - Date.now();
    return this.now();
  }
}

module.exports = { Clock };
