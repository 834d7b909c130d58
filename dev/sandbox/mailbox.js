'use strict';
// The sandbox's mailbox: what the people the sandbox mailed write back to the sender. Each mail sent to an
// address whose local part begins reply., ooo., unsub. or bounce. gets one answer an hour (service clock) after
// the mail was sent (or failed): a reply, an out-of-office answer, an unsubscribe request, or a delivery
// status notification. Derived from the mails store and the clock when read, like every delivery state.
// Exposed at GET /__sandbox/mailbox (README.md, "Mailbox"); the emulator's Gmail reads it (gmail-sandbox.js).
const { TIMINGS } = require('./rules');
const { iso } = require('./util');

const ANSWER_DELAY_MS = 3600 * 1000;
const DAY_MS = 86400000;
/** The out-of-office answer gives a return date this long after the answer. */
const AWAY_DAYS = 10;
const KINDS = ['reply', 'ooo', 'unsub', 'bounce'];
const MONTHS = {
  en: 'January February March April May June July August September October November December'.split(' '),
  fr: 'janvier février mars avril mai juin juillet août septembre octobre novembre décembre'.split(' '),
  es: 'enero febrero marzo abril mayo junio julio agosto septiembre octubre noviembre diciembre'.split(' '),
};

/** The answer kind of a recipient address (its local part's first label), or null. */
function answerKind(email) {
  const local = String(email).toLowerCase().split('@')[0];
  return KINDS.find((k) => local.startsWith(`${k}.`)) || null;
}

/** The language of an answer: the recipient's country domain (.de .at .ch → German, .fr, .es), else English. */
function languageOf(email) {
  const tld = String(email).toLowerCase().split('.').pop();
  if (['de', 'at', 'ch'].includes(tld)) return 'de';
  if (tld === 'fr') return 'fr';
  if (tld === 'es') return 'es';
  return 'en';
}

function returnDate(lang, ms) {
  const d = new Date(ms);
  const [day, month, year] = [d.getUTCDate(), d.getUTCMonth(), d.getUTCFullYear()];
  if (lang === 'de') return `${String(day).padStart(2, '0')}.${String(month + 1).padStart(2, '0')}.${year}`;
  if (lang === 'es') return `${day} de ${MONTHS.es[month]} de ${year}`;
  return `${day} ${MONTHS[lang][month]} ${year}`;
}

const OOO = {
  en: ['Out of office', (date) => `Thank you for your message. I am out of the office and back on ${date}.`],
  de: ['Abwesenheitsnotiz', (date) => `Vielen Dank für Ihre Nachricht. Ich bin zurück am ${date}.`],
  fr: ['Absence du bureau', (date) => `Merci pour votre message. Je serai de retour le ${date}.`],
  es: ['Fuera de la oficina', (date) => `Gracias por su mensaje. Estaré de vuelta el ${date}.`],
};
const UNSUB = {
  en: 'Please remove me from your list. Unsubscribe.',
  de: 'Bitte nehmen Sie mich aus Ihrem Verteiler. Abmelden.',
  fr: 'Merci de me retirer de votre liste. Désinscrire.',
  es: 'Por favor, quíteme de su lista. Darse de baja.',
};

/** The Message-ID the sandbox gives the mail it sent (what a reply's In-Reply-To names). */
const messageIdOf = (mail) => `<mail-${mail.mailId}@outreach.sandbox>`;

function quoted(mail) {
  const firstLine = String(mail.content || '')
    .replace(/<[^>]*>/g, ' ')
    .split('\n')[0]
    .trim();
  return firstLine ? `\n\n> ${firstLine}` : '';
}

/** The answer to `mail` (kind, fields of a message), written at `atMs`. */
function answerOf(mail, kind, atMs) {
  const to = mail.recipientEmail;
  const name = mail.recipientNickname ? `${mail.recipientNickname} <${to}>` : to;
  const lang = languageOf(to);
  const base = { from: name, inReplyTo: messageIdOf(mail), headers: {} };
  if (kind === 'reply') {
    const body = `Thanks for your message, this sounds interesting. Can we talk next week?${quoted(mail)}`;
    return { ...base, subject: `Re: ${mail.subject}`, body };
  }
  if (kind === 'unsub') return { ...base, subject: `Re: ${mail.subject}`, body: UNSUB[lang] };
  if (kind === 'ooo') {
    const [subject, text] = OOO[lang];
    const body = text(returnDate(lang, atMs + AWAY_DAYS * DAY_MS));
    // RFC 3834 3.3: an automatic answer goes from the null sender, as a delivery report does.
    return { ...base, subject, body, returnPath: '', headers: { 'Auto-Submitted': 'auto-replied' } };
  }
  return deliveryReport(mail, atMs);
}

/**
 * The delivery status notification of a failed mail, as Gmail's mail system writes one (RFC 3464 inside an
 * RFC 6522 multipart/report): from the null sender (Return-Path <>), a text for people, the
 * message/delivery-status part (the failed recipient, its status and the remote server's answer) and the
 * original message's headers (text/rfc822-headers), threaded to it by In-Reply-To and References.
 */
function deliveryReport(mail, atMs) {
  const to = mail.recipientEmail;
  const reason = mail.outcome.failureReason || 'Mailbox unavailable';
  const text =
    `Address not found\n\nYour message wasn't delivered to ${to} because the address couldn't be found, ` +
    `or is unable to receive mail.\n\nThe response from the remote server was:\n550 5.1.1 <${to}>: ${reason}`;
  const status = [
    'Reporting-MTA: dns; googlemail.com',
    `Arrival-Date: ${new Date(mail.createdAt).toUTCString()}`,
    '',
    `Final-Recipient: rfc822; ${to}`,
    'Action: failed',
    'Status: 5.1.1',
    `Diagnostic-Code: smtp; 550 5.1.1 <${to}>: ${reason}`,
    `Last-Attempt-Date: ${new Date(atMs).toUTCString()}`,
  ].join('\r\n');
  const original = [
    `To: ${to}`,
    `Subject: ${mail.subject}`,
    `Date: ${new Date(mail.createdAt).toUTCString()}`,
    `Message-ID: ${messageIdOf(mail)}`,
  ].join('\r\n');
  return {
    from: 'Mail Delivery Subsystem <mailer-daemon@googlemail.com>',
    subject: 'Delivery Status Notification (Failure)',
    inReplyTo: messageIdOf(mail),
    returnPath: '',
    headers: { 'X-Failed-Recipients': to, 'Auto-Submitted': 'auto-replied' },
    contentType: 'multipart/report; report-type=delivery-status',
    body: text,
    parts: [
      { mimeType: 'text/plain', body: text },
      { mimeType: 'message/delivery-status', body: status },
      { mimeType: 'text/rfc822-headers', body: original },
    ],
  };
}

/**
 * The answers written in (sinceMs, untilMs] (until: at most now) to the mails of `key` (every key without
 * one), oldest first.
 */
function mailboxOf(state, { key = null, sinceMs = 0, untilMs = Infinity } = {}) {
  const until = Math.min(untilMs, state.now());
  const out = [];
  for (const mail of state.mails.values()) {
    if (key && mail.key !== key) continue;
    const kind = answerKind(mail.recipientEmail);
    if (!kind) continue;
    const resolvedAt = mail.createdAt + TIMINGS.firstResolveMs + mail.index * TIMINGS.perMailMs;
    const atMs = resolvedAt + ANSWER_DELAY_MS;
    if (atMs <= sinceMs || atMs > until) continue;
    const answer = answerOf(mail, kind, atMs);
    out.push({
      id: `answer-${mail.mailId}`,
      kind,
      key: mail.key,
      mailId: mail.mailId,
      dateMs: atMs,
      date: iso(atMs),
      messageId: `<answer-${mail.mailId}@${String(mail.recipientEmail).split('@')[1]}>`,
      ...answer,
    });
  }
  return out.sort((a, b) => a.dateMs - b.dateMs || a.mailId - b.mailId);
}

module.exports = { mailboxOf, answerKind, messageIdOf, ANSWER_DELAY_MS, AWAY_DAYS };
