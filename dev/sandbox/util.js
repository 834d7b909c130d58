'use strict';
// Small pure helpers shared by the sandbox modules.

/** Seeded PRNG (mulberry32): the same seed always gives the same sequence. */
function mulberry32(seed) {
  let a = seed >>> 0;
  return function next() {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** A small helper object around a PRNG. */
function randomTools(seed) {
  const next = mulberry32(seed);
  const int = (min, max) => min + Math.floor(next() * (max - min + 1));
  const pick = (list) => list[Math.floor(next() * list.length)];
  const pickSome = (list, min, max) => {
    const count = Math.min(list.length, int(min, max));
    const copy = list.slice();
    const out = [];
    for (let i = 0; i < count; i++) out.push(copy.splice(Math.floor(next() * copy.length), 1)[0]);
    return out;
  };
  return { next, int, pick, pickSome, chance: (p) => next() < p };
}

/** FNV-1a 32-bit hash of a string. */
function fnv1a(text) {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

const iso = (ms) => (ms == null ? null : new Date(ms).toISOString());

/** Length in Unicode code points (what the sandbox means by "characters"). */
const charCount = (text) => {
  let n = 0;
  for (const _ of text) n++;
  return n;
};

const isPlainObject = (v) => v !== null && typeof v === 'object' && !Array.isArray(v);

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

const SECOND = 1000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

module.exports = {
  mulberry32,
  randomTools,
  fnv1a,
  iso,
  charCount,
  isPlainObject,
  sleep,
  SECOND,
  MINUTE,
  HOUR,
  DAY,
};
