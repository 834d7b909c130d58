'use strict';
// What the specs allow at best: the fewest API requests an operation can make, and the least time those
// requests need under the services' rate limits. Pure functions (unit-testable, documented in README.md).
const { RATE_LIMITS } = require('../sandbox');

/** Contact e-mails per profileEmails page at most (spec: pageSize 1..100). */
const PROFILE_EMAILS_MAX_PAGE = 100;
/** Rows per search page at most (spec: size 1..50). */
const SEARCH_MAX_PAGE = 50;

/** Searching `rows` rows by paging: one request per page of 50. */
function searchMinimum(rows) {
  return Math.ceil(rows / SEARCH_MAX_PAGE);
}

/**
 * Unlocking companies and fetching their contacts: 1 balance (the cost confirmation states it) + 1 unlock
 * and 1 profile per company + ceil(contacts / 100) profileEmails pages per company (at least 1: an empty
 * first page is how a company without contacts is known).
 * @param {number[]} contactCounts contacts of each company
 */
function unlockMinimum(contactCounts) {
  const pages = contactCounts.reduce(
    (sum, n) => sum + Math.max(1, Math.ceil(n / PROFILE_EMAILS_MAX_PAGE)),
    0,
  );
  return 1 + 2 * contactCounts.length + pages;
}

/** Checking phone numbers from the menu: 1 credits (the confirmation states them) + 1 per distinct number. */
function phoneMinimum(distinctUnknown) {
  return distinctUnknown === 0 ? 0 : 1 + distinctUnknown;
}

/**
 * Refreshing tracking (nothing final yet): the mails by Mail ID, 100 ids a request (the spec's largest
 * page_size), then their tasks by task id, 100 a request, per group of 1,000 mails (asked as soon as the
 * group's pages are in). With at most 100 tasks in each 1,000 mails (one task per chunk of 100) that is one
 * task request per 1,000 mails. `opensTasks`: the tasks of final mails sent in the last 14 days whose opens
 * can still grow, read again for their opens, 100 a request with the others.
 */
function trackingMinimum(tasks, mails, opensTasks = 0) {
  const units = Math.ceil(mails / 1000);
  return Math.ceil(mails / 100) + Math.max(units, Math.ceil((tasks + opensTasks) / 100));
}

/**
 * Least time `requests` requests need under a rolling window of `limit` requests per `windowMs`: the first
 * `limit` go at once (the window starts empty), each further `limit` waits one more window.
 *   floor = max(0, ceil(requests / limit) - 1) × windowMs
 */
function rateFloorMs(requests, { limit, windowMs }) {
  if (!(requests > 0)) return 0;
  return Math.max(0, Math.ceil(requests / limit) - 1) * windowMs;
}

/** Floor of an operation whose minimum requests per service are given: the slowest service decides. */
function operationFloorMs(minimumByService) {
  let floor = 0;
  for (const [service, requests] of Object.entries(minimumByService)) {
    const limits = RATE_LIMITS[service];
    if (!limits) throw new Error(`no rate limit known for service "${service}"`);
    floor = Math.max(floor, rateFloorMs(requests, limits));
  }
  return floor;
}

module.exports = {
  PROFILE_EMAILS_MAX_PAGE,
  SEARCH_MAX_PAGE,
  RATE_LIMITS,
  searchMinimum,
  unlockMinimum,
  phoneMinimum,
  trackingMinimum,
  rateFloorMs,
  operationFloorMs,
};
