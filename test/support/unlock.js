'use strict';
const zlib = require('node:zlib');
// The unlock as a user does it: the menu action (Unlock selected companies) opens the unlock dialog, whose
// Unlock button calls confirmUnlock in an execution of its own. `unlock(emu)` does both, as a click on
// Unlock with the boxes as the dialog ticked them (or `roles`); `unlockQuestion(emu)` reads the dialog.

/**
 * The unlock dialog the last menu action showed: its lines, contacts sentence, button, the roles ticked and
 * the answer it sends; `text` is every line and the contacts sentence. Null when it did not open.
 */
function unlockQuestion(emu, from = 0) {
  const dialog = emu.ui.dialogs.slice(from).findLast((d) => d.title === 'Unlock companies');
  if (!dialog) return null;
  const match = /var QUESTION = (.*);\n/.exec(dialog.html);
  const question = JSON.parse(match[1]);
  const every = (group) => (question.roles[group].length ? question.roles[group] : question[group]);
  return {
    ...question,
    ticked: { departments: every('departments'), seniorities: every('seniorities') },
    text: [...question.lines, question.contacts].join('\n'),
  };
}

/**
 * Menu: Unlock selected companies, then Unlock in its dialog (when it opened). `roles`: the boxes ticked
 * ({ departments, seniorities }, a missing group as shown); `beforeAnswer(question)`: what happens while the
 * dialog is open. Returns the question (null when no dialog opened) and the answer.
 */
function unlock(emu, { roles, beforeAnswer, user } = {}) {
  const as = user ? { user } : {};
  const from = emu.ui.dialogs.length;
  emu.run('unlockSelectedCompanies', [], { kind: 'menu', ...as });
  const question = unlockQuestion(emu, from);
  if (!question) return { question: null };
  if (beforeAnswer) beforeAnswer(question);
  const answer = { ...question.answer, roles: { ...question.ticked, ...roles } };
  return { question, answer: emu.run('confirmUnlock', [answer], { kind: 'webapp', ...as }) };
}

/** nameMark() of src/features/prospecting/company-index.ts: FNV-1a of the trimmed lower-case name, base 36. */
function nameMark(name) {
  const text = String(name).trim().replace(/\s+/g, ' ').toLowerCase();
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash.toString(36);
}

/**
 * Changes the company index in the document's properties as only the add-on writes it: `edit(id, entry)`
 * gets each `[domain, country, savedAt, nameMark]` and returns the entry to keep.
 */
function editCompanyIndex(emu, edit) {
  const properties = emu.properties.document;
  for (const [key, stored] of Object.entries(properties.getProperties())) {
    if (!key.startsWith('companyIndex.')) continue;
    const text = stored.startsWith('gz:')
      ? zlib.gunzipSync(Buffer.from(stored.slice(3), 'base64')).toString('utf8')
      : stored;
    const shard = JSON.parse(text);
    for (const id of Object.keys(shard)) shard[id] = edit(id, shard[id]);
    properties.setProperty(key, JSON.stringify(shard));
  }
}

module.exports = { unlock, unlockQuestion, nameMark, editCompanyIndex };
