// One mailbox, one key. Addresses are compared in the form their mailbox is found by: case never matters; at
// Gmail dots in the local part and a "+tag" never change the mailbox (googlemail.com is gmail.com); the other
// large providers below deliver "+tag" to the mailbox without it. Elsewhere the local part is the server's to
// read, so it is kept as written (lower case: no provider of mail merges tells two mailboxes apart by case).
const GMAIL = new Set(['gmail.com', 'googlemail.com']);
/** Providers that deliver local+tag@domain to local@domain (their own help pages on sub-addressing). */
const PLUS_TAGS = new Set([
  'outlook.com',
  'hotmail.com',
  'live.com',
  'msn.com',
  'icloud.com',
  'me.com',
  'mac.com',
  'proton.me',
  'protonmail.com',
  'pm.me',
  'fastmail.com',
  'yandex.com',
  'yandex.ru',
]);

/** The key an address is compared by: '' for an empty cell. */
export function addressKey(address: string): string {
  const text = String(address).trim().toLowerCase();
  const at = text.lastIndexOf('@');
  if (at <= 0) return text;
  let local = text.slice(0, at);
  let domain = text.slice(at + 1);
  if (GMAIL.has(domain)) {
    domain = 'gmail.com';
    local = untagged(local).replace(/\./g, '');
  } else if (PLUS_TAGS.has(domain)) local = untagged(local);
  return `${local || text.slice(0, at)}@${domain}`;
}

function untagged(local: string): string {
  const plus = local.indexOf('+');
  return plus > 0 ? local.slice(0, plus) : local;
}
