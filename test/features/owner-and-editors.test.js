'use strict';
// Through the built bundle, with two users: the spreadsheet's owner and an editor.
// Custom functions run with the OWNER's user properties whoever edits the sheet: they use the owner's keys,
// PHONE_CHECK spends the owner's credits only where the owner allowed it in this document, and they may
// not write user properties (so the attribution install id is made beforehand, in Settings or a menu).
const { useServices, newAddon, DEMO_KEYS } = require('../support/harness');
const { registeredPhoneNumber, unregisteredPhoneNumber } = require('../../dev/sandbox/rules');

const services = useServices();
let emu;

afterEach(() => emu && emu.dispose());

const OWNER = 'owner@example.com';
const EDITOR = 'editor@example.com';
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
const NOT_ALLOWED =
  /^not checked: formulas here may not spend the owner's phone-check credits\. The owner can allow it in Extensions › Outreach › Settings/;

const phoneChecks = () => emu.fetchLog.filter((r) => r.url.includes('/api/wa/check')).length;
const phoneCheck = (...args) => emu.runCustomFunction('PHONE_CHECK', args);

/** Saves settings in the dialog as `user` (google.script.run from the Settings dialog). */
function saveAs(user, settings) {
  return emu.run('saveSettings', [settings], { kind: 'webapp', user });
}

/** An add-on whose owner saved `ownerKeys`; the editor, at the keyboard now, saved `editorKeys`. */
function ownerAndEditor(ownerKeys, editorKeys) {
  emu = newAddon(services, { users: { owner: OWNER, active: OWNER }, ...ownerKeys });
  saveAs(EDITOR, {
    outreachBaseUrl: services.sandbox.outreachUrl,
    phoneBaseUrl: services.sandbox.phoneUrl,
    ...editorKeys,
  });
  emu.setActiveUser(EDITOR);
}

describe("formulas use the owner's keys", () => {
  test("an editor's own key does not make formulas work: the message says whose key they use and what to do", () => {
    ownerAndEditor(
      { outreachKey: null, phoneKey: null },
      { outreachApiKey: DEMO_KEYS.paid, phoneApiKey: DEMO_KEYS.phone },
    );
    expect(() => emu.runCustomFunction('PROSPECT_BALANCE', [])).toThrow(
      "No outreach API key for formulas: they use the spreadsheet owner's key. The owner adds it in Extensions › Outreach › Settings; editors can search from the sidebar with their own key.",
    );
    expect(phoneCheck(registeredPhoneNumber(1))).toMatch(
      /^No phone-check API key for formulas: they use the spreadsheet owner's key\. The owner adds it in Extensions › Outreach › Settings/,
    );
    expect(emu.runCustomFunction('PHONE_CREDITS', [])).toMatch(/spreadsheet owner's key/);
    expect(emu.fetchLog).toHaveLength(0);
    // The editor's own key works where the editor is the one acting: the sidebar and the menu.
    const page = emu.run('searchCompanies', [{ products: 'solar', size: 2 }], { kind: 'webapp' });
    expect(page.added).toBe(2);
    expect(emu.fetchLog.at(-1).headers.Authorization).toBe(`ApiKey ${DEMO_KEYS.paid}`);
  });

  test("an editor's formula spends nothing of the editor's: it runs on the owner's key", () => {
    ownerAndEditor({ outreachKey: DEMO_KEYS.paid }, { outreachApiKey: DEMO_KEYS.free });
    const balance = emu.runCustomFunction('PROSPECT_BALANCE', []);
    expect(balance[0]).toContain('Usable points');
    expect(emu.fetchLog.at(-1).headers.Authorization).toBe(`ApiKey ${DEMO_KEYS.paid}`);
  });
});

describe('PHONE_CHECK spends credits only where the owner allowed formulas in this document to', () => {
  test('off by default: no check is paid; known numbers and PHONE_CREDITS still answer (free)', () => {
    ownerAndEditor({}, {});
    const known = registeredPhoneNumber(1);
    const sheet = emu.spreadsheet.getSheets()[0];
    sheet.getRange('A1:A2').setValues([['Phone'], [known]]);
    emu.select('Sheet1!A2');
    emu.run('checkSelectedPhones', [], { kind: 'menu', user: OWNER });
    expect(phoneChecks()).toBe(1);

    const answer = phoneCheck([[known], [unregisteredPhoneNumber(2)], ['12']]);
    expect(answer[0]).toEqual([true]);
    expect(answer[1][0]).toMatch(NOT_ALLOWED);
    expect(answer[2]).toEqual(['invalid number: too short, at least 7 digits']);
    expect(phoneChecks()).toBe(1);
    expect(emu.runCustomFunction('PHONE_CREDITS', [])).toBe(999);
    expect(emu.run('getSettings', [], { kind: 'webapp', user: OWNER }).phoneFormulasAllowed).toBe(false);
  });

  test("the owner's switch in Settings allows it; an editor's switch neither allows nor withdraws it", () => {
    ownerAndEditor({}, {});
    const number = unregisteredPhoneNumber(5);
    // The editor turns it on: it is the editor's consent, and formulas do not run on the editor's key.
    expect(saveAs(EDITOR, { allowPhoneFormulas: true }).phoneFormulasAllowed).toBe(true);
    expect(phoneCheck(number)).toMatch(NOT_ALLOWED);
    expect(phoneChecks()).toBe(0);

    expect(saveAs(OWNER, { allowPhoneFormulas: true }).phoneFormulasAllowed).toBe(true);
    expect(phoneCheck(number)).toBe(false);
    expect(phoneChecks()).toBe(1);

    // The editor turns their own switch off: the owner's consent stays.
    expect(saveAs(EDITOR, { allowPhoneFormulas: false }).phoneFormulasAllowed).toBe(false);
    expect(phoneCheck(registeredPhoneNumber(6))).toBe(true);
    expect(emu.run('getSettings', [], { kind: 'webapp', user: OWNER }).phoneFormulasAllowed).toBe(true);

    // The owner withdraws it: new numbers are no longer paid for by formulas.
    saveAs(OWNER, { allowPhoneFormulas: false });
    expect(phoneCheck(registeredPhoneNumber(7))).toMatch(NOT_ALLOWED);
    expect(phoneChecks()).toBe(2);
    // Nothing in the document names who allowed it.
    const documentProperties = JSON.stringify(emu.properties.document.getProperties());
    expect(documentProperties).not.toContain(OWNER);
    expect(documentProperties).not.toContain(EDITOR);
  });

  test("the consent belongs to this document: the owner's consent elsewhere does not count here", () => {
    ownerAndEditor({}, {});
    saveAs(OWNER, { allowPhoneFormulas: true });
    const consent = emu.properties.document.getProperty('phoneFormulas.allowedBy');
    const ownerProperties = emu.properties.forUser(OWNER).getProperties();
    emu.dispose();
    // Another spreadsheet of the same owner (same user properties), with this document's properties copied.
    emu = newAddon(services, { users: { owner: OWNER, active: OWNER }, spreadsheetId: '1OtherSpreadsheet' });
    emu.properties.forUser(OWNER).setProperties(ownerProperties);
    emu.properties.document.setProperty('phoneFormulas.allowedBy', consent);
    expect(phoneCheck(registeredPhoneNumber(8))).toMatch(NOT_ALLOWED);
    expect(phoneChecks()).toBe(0);
    saveAs(OWNER, { allowPhoneFormulas: true });
    expect(phoneCheck(registeredPhoneNumber(8))).toBe(true);
  });
});

describe('formulas send the attribution headers', () => {
  test("the install id is made when Settings are saved, so the owner's formulas send it", () => {
    ownerAndEditor({}, {});
    const ownerId = emu.properties.forUser(OWNER).getProperty('attribution.installId');
    const editorId = emu.properties.forUser(EDITOR).getProperty('attribution.installId');
    expect(ownerId).toMatch(UUID);
    expect(editorId).toMatch(UUID);
    expect(emu.fetchLog).toHaveLength(0);
    emu.runCustomFunction('PROSPECT_BALANCE', []);
    const headers = emu.fetchLog.at(-1).headers;
    expect(headers['X-Svc-Install-Id']).toBe(ownerId);
    expect(headers['X-Svc-Skill-Runtime']).toBe('google-apps-script');
  });

  test('a custom function never writes user properties; the next menu action makes a missing id', () => {
    ownerAndEditor({}, {});
    emu.properties.forUser(OWNER).deleteProperty('attribution.installId');
    const before = JSON.stringify(emu.properties.forUser(OWNER).getProperties());
    const balance = emu.runCustomFunction('PROSPECT_BALANCE', []);
    expect(balance[0]).toContain('Usable points');
    expect(emu.fetchLog.at(-1).headers['X-Svc-Install-Id']).toBeUndefined();
    expect(JSON.stringify(emu.properties.forUser(OWNER).getProperties())).toBe(before);
    emu.run('showSettings', [], { kind: 'menu', user: OWNER });
    expect(emu.properties.forUser(OWNER).getProperty('attribution.installId')).toMatch(UUID);
  });
});
