'use strict';
// The outreach requests another execution of the same user made this minute (a sidebar's search pages, a
// custom function), so that a job meets the service's rate window (60 requests a minute) after a few chunks
// instead of 60 of them: 6,000 rows. The requests reach the sandbox with the key, and their slots are in the
// add-on's rate budget, the user's cache entry that src/platform/rate-budget.ts keeps (`rate.outreach.` and the
// key's SHA-256, a `v1:` log of times in base 36).
const crypto = require('node:crypto');
const http = require('node:http');
const { DEMO_KEYS } = require('../../dev/sandbox');

/** Times of a budget's log as rate-budget.ts encodes them: the first, then the gaps, in base 36. */
function encodeLog(times) {
  const gaps = times.slice(1).map((t, i) => (t - times[i]).toString(36));
  return `v1:${times[0].toString(36)}:${gaps.join(',')}`;
}

function decodeLog(value) {
  if (!value || !value.startsWith('v1:')) return [];
  const [, first, gaps] = value.split(':');
  const times = [parseInt(first, 36)];
  for (const gap of gaps ? gaps.split(',') : []) times.push(times.at(-1) + parseInt(gap, 36));
  return times;
}

/** One balance request, on a connection of its own (one kept idle while an execution ran may be closed). */
function balanceStatus(baseUrl, key) {
  return new Promise((resolve, reject) => {
    const headers = { Authorization: `ApiKey ${key}`, connection: 'close' };
    http
      .get(`${baseUrl}/api/v1/credit/balance`, { headers, agent: false }, (response) => {
        response.resume().on('end', () => resolve(response.statusCode));
      })
      .on('error', reject);
  });
}

/** Takes `n` of the minute's outreach slots of `key`, now, at the sandbox and in the add-on's budget. */
async function takeRateSlots(
  emu,
  { clock, sandbox },
  n,
  { key = DEMO_KEYS.paid, user = emu.users.active } = {},
) {
  const statuses = await Promise.all(
    Array.from({ length: n }, () => balanceStatus(sandbox.outreachUrl, key)),
  );
  const refused = statuses.filter((status) => status !== 200).length;
  if (refused) throw new Error(`the sandbox refused ${refused} of the ${n} requests that take rate slots`);
  const cacheKey = `rate.outreach.${crypto.createHash('sha256').update(key, 'utf8').digest('hex').slice(0, 40)}`;
  const cache = emu.cache.user(user);
  const times = [...decodeLog(cache.get(cacheKey)), ...Array(n).fill(clock.now())].sort((a, b) => a - b);
  cache.put(cacheKey, encodeLog(times), 3600);
}

module.exports = { takeRateSlots };
