'use strict';
// A `gmailIncoming` source (gmail.js) that reads the service sandbox's mailbox: the answers that addresses
// beginning reply., ooo., unsub. and bounce. give to mails sent with an API key (dev/sandbox/README.md,
// "Mailbox"). Each user receives the answers to the mails sent with their key.
//
//   new AppsScriptEmulator({ ..., gmailIncoming: sandboxMailbox(sandbox.outreachUrl, { 'owner@example.com': key }) })

/**
 * @param {string} outreachUrl the sandbox's outreach base URL
 * @param {Record<string, string> | ((userEmail: string) => string | null)} keyOf the API key of each user's mails
 */
function sandboxMailbox(outreachUrl, keyOf) {
  return (user, { sinceMs, nowMs, getJson }) => {
    const key = typeof keyOf === 'function' ? keyOf(user) : keyOf[user];
    if (!key) return [];
    const query = `since=${sinceMs}&until=${nowMs}&key=${encodeURIComponent(key)}`;
    const { messages } = getJson(`${outreachUrl}/__sandbox/mailbox?${query}`);
    return messages.map((m) => ({
      from: m.from,
      to: user,
      subject: m.subject,
      date: m.dateMs,
      body: m.body,
      headers: m.headers,
      messageId: m.messageId,
      inReplyTo: m.inReplyTo,
      returnPath: m.returnPath,
      contentType: m.contentType,
      parts: m.parts,
    }));
  };
}

module.exports = { sandboxMailbox };
