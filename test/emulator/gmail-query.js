'use strict';
// Gmail's search language (the `q` of users.messages.list), as far as the emulator reads it: a parser to a
// small tree and a matcher over the emulator's stored messages. Sources and the rules chosen where Google is
// silent: README.md, "Gmail advanced service".
const { zonedToUtc } = require('./timezone');

/** Dates written yyyy/mm/dd are midnight in "the PST timezone" (Gmail API guide, "Search and filter"). */
const QUERY_DATE_ZONE = 'America/Los_Angeles';
const DAY_MS = 86400000;
/** newer_than / older_than units (Gmail's search operators page: d, m, y). A month is 30 days, a year 365. */
const PERIOD_MS = { d: DAY_MS, m: 30 * DAY_MS, y: 365 * DAY_MS };
const KNOWN_OPERATORS = new Set([
  'from',
  'to',
  'cc',
  'bcc',
  'subject',
  'after',
  'before',
  'older',
  'newer',
  'newer_than',
  'older_than',
  'in',
  'label',
  'is',
  'rfc822msgid',
  'list',
  'deliveredto',
]);

class QueryError extends Error {}

/* ------------------------------------------------------------------ tokens */

function tokenize(q) {
  const tokens = [];
  let i = 0;
  while (i < q.length) {
    const c = q[i];
    if (/\s/.test(c)) {
      i++;
    } else if ('(){}'.includes(c)) {
      tokens.push({ type: c });
      i++;
    } else if (c === '"') {
      const end = q.indexOf('"', i + 1);
      const stop = end === -1 ? q.length : end;
      tokens.push({ type: 'phrase', value: q.slice(i + 1, stop) });
      i = stop + 1;
    } else {
      let j = i;
      while (j < q.length && !/\s/.test(q[j]) && !'(){}"'.includes(q[j])) j++;
      // An operator followed by a quote or a group: `subject:"a b"`, `from:(a OR b)`.
      tokens.push({ type: 'word', value: q.slice(i, j), glued: j < q.length && '({"'.includes(q[j]) });
      i = j;
    }
  }
  return tokens;
}

/* ------------------------------------------------------------------ parser */

// Gmail's precedence: OR binds tighter than the implicit AND ("a b OR c" is a AND (b OR c)).
class Parser {
  constructor(tokens) {
    this.tokens = tokens;
    this.at = 0;
  }
  peek() {
    return this.tokens[this.at];
  }
  next() {
    return this.tokens[this.at++];
  }
  /** A sequence of terms up to `close` (ANDed, or ORed inside `{ }`); `field` applies to bare words. */
  sequence(close, field, combine = 'and') {
    const items = [];
    for (;;) {
      const t = this.peek();
      if (!t) {
        if (close) throw new QueryError(`missing ${close}`);
        break;
      }
      if (t.type === close) {
        this.next();
        break;
      }
      if (t.type === 'word' && t.value === 'AND') {
        this.next();
        continue;
      }
      items.push(this.orChain(field));
    }
    if (items.length === 1) return items[0];
    return { [combine]: items };
  }
  orChain(field) {
    const items = [this.unary(field)];
    while (this.peek() && this.peek().type === 'word' && this.peek().value === 'OR') {
      this.next();
      if (!this.peek()) break;
      items.push(this.unary(field));
    }
    return items.length === 1 ? items[0] : { or: items };
  }
  unary(field) {
    const t = this.peek();
    if (t.type === 'word' && t.value.startsWith('-') && t.value.length > 1) {
      this.next();
      this.tokens.splice(this.at, 0, { ...t, value: t.value.slice(1) });
      return { not: this.unary(field) };
    }
    if (t.type === 'word' && t.value === '-' && this.tokens[this.at + 1]) {
      this.next();
      return { not: this.unary(field) };
    }
    return this.primary(field);
  }
  primary(field) {
    const t = this.next();
    if (t.type === '(') return this.sequence(')', field, 'and');
    if (t.type === '{') return this.sequence('}', field, 'or');
    if (t.type === ')' || t.type === '}') return { text: t.type, phrase: false };
    if (t.type === 'phrase') return field ? { op: field, value: t.value } : { text: t.value, phrase: true };
    const colon = t.value.indexOf(':');
    const op = colon > 0 ? t.value.slice(0, colon).toLowerCase() : null;
    if (op && KNOWN_OPERATORS.has(op)) {
      const rest = t.value.slice(colon + 1);
      if (rest === '' && t.glued) return this.groupFor(op);
      return { op, value: rest };
    }
    if (op && !field) return { unknown: op, text: t.value, phrase: false };
    return field ? { op: field, value: t.value } : { text: t.value, phrase: false };
  }
  /** `op:(a b)`, `op:{a b}`, `op:"a b"`. */
  groupFor(op) {
    const t = this.next();
    if (t.type === 'phrase') return { op, value: t.value };
    if (t.type === '(') return this.sequence(')', op, 'and');
    return this.sequence('}', op, 'or');
  }
}

/** The query as a tree; throws QueryError on an unclosed group. */
function parseQuery(q) {
  const tokens = tokenize(String(q || ''));
  if (tokens.length === 0) return null;
  return new Parser(tokens).sequence(null, null, 'and');
}

/* ------------------------------------------------------------------ matching */

const words = (text) =>
  String(text || '')
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter(Boolean);

/** True when the words of `needle` appear, in order and contiguous, among `haystack`'s words. */
function hasWords(haystack, needle) {
  const h = words(haystack);
  const n = words(needle);
  if (n.length === 0) return false;
  for (let i = 0; i + n.length <= h.length; i++) {
    if (n.every((w, k) => h[i + k] === w)) return true;
  }
  return false;
}

const parsedAddresses = new Map();

/** The addresses of an address header ("Ann <ann@x.com>, bob@y.org" → ['ann@x.com', 'bob@y.org']). */
function addressesOf(header) {
  const key = String(header || '');
  if (!parsedAddresses.has(key)) {
    if (parsedAddresses.size > 100000) parsedAddresses.clear();
    parsedAddresses.set(key, parseAddresses(key));
  }
  return parsedAddresses.get(key);
}

function parseAddresses(header) {
  const out = [];
  for (const part of String(header || '').split(',')) {
    const angle = part.match(/<([^>]+)>/);
    const bare = part.match(/[^\s<>"]+@[^\s<>",]+/);
    const address = angle ? angle[1] : bare ? bare[0] : '';
    if (address) out.push(address.trim().toLowerCase());
  }
  return out;
}

/**
 * from:/to:/cc: against one header: an address matches exactly, "@domain" or a domain matches the address's
 * domain (or a subdomain), anything else matches a word of the header (display name, address parts).
 */
function addressMatches(header, value, userEmail) {
  const v = String(value).toLowerCase();
  const list = addressesOf(header);
  if (v === 'me') return list.includes(String(userEmail).toLowerCase());
  if (v.includes('@') && !v.startsWith('@')) return list.includes(v);
  const domain = v.replace(/^@/, '');
  if (v.startsWith('@') || domain.includes('.')) {
    if (list.some((a) => a.split('@')[1] === domain || a.endsWith(`.${domain}`))) return true;
    if (v.startsWith('@')) return false;
  }
  return hasWords(header, v);
}

/** after:/before: values: epoch seconds, or a date (yyyy/mm/dd, yyyy-mm-dd, mm/dd/yyyy) at midnight PST. */
function dateValue(value) {
  const v = String(value);
  if (/^\d+$/.test(v) && v.length > 8) return Number(v) * 1000;
  let m = v.match(/^(\d{4})[/-](\d{1,2})[/-](\d{1,2})$/);
  if (m) return zonedToUtc(QUERY_DATE_ZONE, Number(m[1]), Number(m[2]), Number(m[3]));
  m = v.match(/^(\d{1,2})\/(\d{1,2})\/(\d{4})$/);
  if (m) return zonedToUtc(QUERY_DATE_ZONE, Number(m[3]), Number(m[1]), Number(m[2]));
  return null;
}

function periodValue(value) {
  const m = String(value)
    .toLowerCase()
    .match(/^(\d+)([dmy])$/);
  return m ? Number(m[1]) * PERIOD_MS[m[2]] : null;
}

const LOCATIONS = {
  inbox: (m) => m.labelIds.includes('INBOX'),
  sent: (m) => m.labelIds.includes('SENT'),
  spam: (m) => m.labelIds.includes('SPAM'),
  trash: (m) => m.labelIds.includes('TRASH'),
  drafts: (m) => m.labelIds.includes('DRAFT'),
  anywhere: () => true,
  chats: () => false,
};
const STATES = {
  unread: (m) => m.labelIds.includes('UNREAD'),
  read: (m) => !m.labelIds.includes('UNREAD'),
  starred: (m) => m.labelIds.includes('STARRED'),
  important: (m) => m.labelIds.includes('IMPORTANT'),
};

function header(m, name) {
  const h = m.headers.find((x) => x.name.toLowerCase() === name);
  return h ? h.value : '';
}

/** One operator term against one message (`ctx`: { userEmail, nowMs }). */
function matchOperator(m, op, value, ctx) {
  const v = String(value);
  switch (op) {
    case 'from':
      return addressMatches(header(m, 'from'), v, ctx.userEmail);
    case 'to':
      return ['to', 'cc', 'bcc'].some((h) => addressMatches(header(m, h), v, ctx.userEmail));
    case 'cc':
    case 'bcc':
    case 'deliveredto':
      return addressMatches(header(m, op === 'deliveredto' ? 'delivered-to' : op), v, ctx.userEmail);
    case 'subject':
      return hasWords(header(m, 'subject'), v);
    case 'list':
      return String(header(m, 'list-id')).toLowerCase().includes(v.toLowerCase());
    case 'rfc822msgid':
      return header(m, 'message-id').replace(/[<>]/g, '') === v.replace(/[<>]/g, '');
    case 'after':
    case 'newer':
    case 'before':
    case 'older': {
      const t = dateValue(v);
      if (t === null) return false;
      return op === 'after' || op === 'newer' ? m.internalDate >= t : m.internalDate < t;
    }
    case 'newer_than':
    case 'older_than': {
      const p = periodValue(v);
      if (p === null) return false;
      return op === 'newer_than' ? m.internalDate >= ctx.nowMs - p : m.internalDate < ctx.nowMs - p;
    }
    case 'in':
      return (LOCATIONS[v.toLowerCase()] || (() => false))(m);
    case 'is':
      return (STATES[v.toLowerCase()] || (() => false))(m);
    case 'label':
      return m.labelIds.some((l) => l.toLowerCase() === v.toLowerCase().replace(/-/g, '_'));
    default:
      return false;
  }
}

/** A word or a quoted phrase: its words, in order, in the subject, the body or an address header. */
function matchText(m, text) {
  const fields = [header(m, 'subject'), m.body, header(m, 'from'), header(m, 'to'), header(m, 'cc')];
  return fields.some((f) => hasWords(f, text));
}

/** True when message `m` matches the tree (null: everything). */
function matches(node, m, ctx) {
  if (!node) return true;
  if (node.and) return node.and.every((n) => matches(n, m, ctx));
  if (node.or) return node.or.some((n) => matches(n, m, ctx));
  if (node.not) return !matches(node.not, m, ctx);
  if (node.op) return matchOperator(m, node.op, node.value, ctx);
  return matchText(m, node.text);
}

/** Whether the tree names SPAM or TRASH itself (in:spam, in:trash, in:anywhere), which lifts their exclusion. */
function reachesSpamTrash(node) {
  if (!node) return false;
  if (node.and || node.or) return (node.and || node.or).some(reachesSpamTrash);
  if (node.not) return false;
  return node.op === 'in' && ['spam', 'trash', 'anywhere'].includes(String(node.value).toLowerCase());
}

/** Operators of the tree the emulator does not model (read as words, as Gmail reads an unknown one). */
function unknownOperators(node, out = []) {
  if (!node) return out;
  if (node.and || node.or) (node.and || node.or).forEach((n) => unknownOperators(n, out));
  else if (node.not) unknownOperators(node.not, out);
  else if (node.unknown) out.push(node.unknown);
  return out;
}

module.exports = {
  parseQuery,
  matches,
  reachesSpamTrash,
  unknownOperators,
  addressesOf,
  dateValue,
  QueryError,
  QUERY_DATE_ZONE,
};
