'use strict';
// Through the built bundle: the rate budget belongs to the API key, which lives in one
// user's properties, so it is kept in that user's cache under that user's lock. The script lock (one lock
// for every user of a published add-on) is never taken: a busy user never slows another.
const { useServices, newAddon, DEMO_KEYS } = require('../support/harness');

const services = useServices();
let emu;

afterEach(() => emu && emu.dispose());

const OWNER = 'owner@example.com';
const EDITOR = 'editor@example.com';

/** Owner and editor, each with their own outreach key saved through Settings. */
function twoUsers() {
  emu = newAddon(services, { users: { owner: OWNER, active: OWNER } });
  const settings = { outreachApiKey: DEMO_KEYS.free, outreachBaseUrl: services.sandbox.outreachUrl };
  emu.run('saveSettings', [settings], { kind: 'webapp', user: EDITOR });
}

/** One search page as `user`; returns how long the execution took (virtual ms) and its lock steps. */
function searchAs(user) {
  emu.run('searchCompanies', [{ products: 'solar', size: 5 }], { kind: 'webapp', user });
  const execution = emu.executions.at(-1);
  expect(execution.status).toBe('completed');
  const steps = emu.locks.history.filter((h) => h.executionId === execution.id);
  return { ms: execution.endMs - execution.startMs, steps };
}

const rateEntries = (store) => [...store.data.keys()].filter((key) => key.startsWith('rate.'));

test("neither user waits for the other's lock, nor for the script lock", () => {
  twoUsers();
  emu.locks.holdByOther('script');
  emu.locks.holdByOther('user', Infinity, { user: OWNER });
  const editor = searchAs(EDITOR);
  expect(editor.ms).toBeLessThan(1000);
  expect(editor.steps.filter((s) => s.action === 'timeout')).toEqual([]);
  expect(editor.steps.map((s) => s.type)).not.toContain('script');
  expect(editor.steps.map((s) => s.type)).toContain('user');

  emu.locks.releaseOther('user', { user: OWNER });
  emu.locks.holdByOther('user', Infinity, { user: EDITOR });
  const owner = searchAs(OWNER);
  expect(owner.ms).toBeLessThan(1000);
  expect(owner.steps.filter((s) => s.action === 'timeout')).toEqual([]);
  expect(owner.steps.map((s) => s.type)).not.toContain('script');
});

test("a user's own lock is waited for, never bypassed", () => {
  twoUsers();
  emu.locks.holdByOther('user', 10_000, { user: OWNER });
  const owner = searchAs(OWNER);
  expect(owner.ms).toBeGreaterThanOrEqual(10_000);
  expect(emu.fetchLog.at(-1).virtualMs - emu.executions.at(-1).startMs).toBeGreaterThanOrEqual(10_000);
});

test("each key's budget is in its user's cache; formulas spend the owner's", () => {
  twoUsers();
  searchAs(OWNER);
  searchAs(EDITOR);
  expect(rateEntries(emu.cache.script)).toEqual([]);
  const ownerLog = rateEntries(emu.cache.user(OWNER));
  const editorLog = rateEntries(emu.cache.user(EDITOR));
  expect(ownerLog).toHaveLength(1);
  expect(editorLog).toHaveLength(1);
  expect(ownerLog[0]).not.toBe(editorLog[0]);
  expect(ownerLog[0]).not.toContain(DEMO_KEYS.paid);

  // A formula runs with the owner's key, cache and lock: the editor's busy lock does not hold it up.
  const slots = () => {
    const [, first, gaps] = emu.cache.user(OWNER).data.get(ownerLog[0]).value.split(':');
    return first ? 1 + (gaps ? gaps.split(',').length : 0) : 0;
  };
  const before = slots();
  emu.locks.holdByOther('user', Infinity, { user: EDITOR });
  emu.runCustomFunction('PROSPECT_BALANCE', []);
  expect(emu.executions.at(-1).status).toBe('completed');
  expect(slots()).toBe(before + 1);
  expect(rateEntries(emu.cache.user(EDITOR))).toEqual(editorLog);
});
