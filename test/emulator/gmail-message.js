'use strict';
// A stored message as the Gmail API's Message resource, in each format of users.messages.get (Gmail API
// reference, "Format" and "Message"): minimal (ids, labels, snippet, dates), metadata (+ the headers asked
// for), full (+ the MIME parts, bodies base64url-encoded) and raw (the whole RFC 2822 text, base64url).

const SNIPPET_CHARS = 200;
const BOUNDARY = '000000000000emulatedboundary';

const ESCAPES = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/** The snippet: the start of the text, whitespace collapsed, HTML-escaped as Gmail sends it. */
function snippetOf(text) {
  const plain = String(text)
    .replace(/<[^>]*>/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
  return plain.slice(0, SNIPPET_CHARS).replace(/[&<>"']/g, (c) => ESCAPES[c]);
}

function b64url(text) {
  return Buffer.from(String(text), 'utf8').toString('base64url');
}

/** A message's parts: its own (a multipart message as delivered), else its text and HTML alternatives. */
function partsOf(m) {
  if (m.parts && m.parts.length) return m.parts;
  if (!m.html) return [];
  return [
    { mimeType: 'text/plain', body: m.body },
    { mimeType: 'text/html', body: m.html },
  ];
}

/** The top-level MIME type (without its parameters). */
function mimeTypeOf(m) {
  if (m.contentType) return m.contentType.split(';')[0].trim();
  return m.html ? 'multipart/alternative' : 'text/plain';
}

function contentType(m) {
  if (m.contentType) return `${m.contentType}; boundary="${BOUNDARY}"`;
  return m.html ? `multipart/alternative; boundary="${BOUNDARY}"` : 'text/plain; charset="UTF-8"';
}

/** A part's Content-Type: text in UTF-8, other types (message/delivery-status…) as they are. */
function partType(mimeType) {
  return mimeType.startsWith('text/') ? `${mimeType}; charset="UTF-8"` : mimeType;
}

/** The headers as Gmail keeps them, with MIME-Version and Content-Type. */
function allHeaders(m) {
  return [
    ...m.headers,
    { name: 'MIME-Version', value: '1.0' },
    { name: 'Content-Type', value: contentType(m) },
  ];
}

/** The message as RFC 2822 text. */
function toRfc822(m) {
  const head = allHeaders(m)
    .map((h) => `${h.name}: ${h.value}`)
    .join('\r\n');
  const parts = partsOf(m);
  if (!parts.length) return `${head}\r\n\r\n${m.body}`;
  const part = (p) => `--${BOUNDARY}\r\nContent-Type: ${partType(p.mimeType)}\r\n\r\n${p.body}\r\n`;
  return `${head}\r\n\r\n${parts.map(part).join('')}--${BOUNDARY}--\r\n`;
}

function bodyOf(text) {
  return { size: Buffer.byteLength(text), data: b64url(text) };
}

function fullPayload(m) {
  const headers = allHeaders(m).map((h) => ({ ...h }));
  const parts = partsOf(m);
  if (!parts.length) {
    return { partId: '', mimeType: 'text/plain', filename: '', headers, body: bodyOf(m.body) };
  }
  const part = (p, i) => ({
    partId: String(i),
    mimeType: p.mimeType,
    filename: '',
    headers: [{ name: 'Content-Type', value: partType(p.mimeType) }],
    body: bodyOf(p.body),
  });
  return {
    partId: '',
    mimeType: mimeTypeOf(m),
    filename: '',
    headers,
    body: { size: 0 },
    parts: parts.map(part),
  };
}

/**
 * The Message resource of users.messages.get. `metadataHeaders` (metadata format only): the header names to
 * keep, case-insensitively; none given keeps every header.
 */
function messageResource(m, format, metadataHeaders = []) {
  const out = {
    id: m.id,
    threadId: m.threadId,
    labelIds: m.labelIds.slice(),
    snippet: m.snippet,
    sizeEstimate: m.sizeEstimate,
    historyId: m.historyId,
    internalDate: String(m.internalDate),
  };
  if (format === 'minimal') return out;
  if (format === 'raw') return { ...out, raw: b64url(toRfc822(m)) };
  if (format === 'full') return { ...out, payload: fullPayload(m) };
  const wanted = metadataHeaders.map((h) => h.toLowerCase());
  const headers = allHeaders(m)
    .filter((h) => wanted.length === 0 || wanted.includes(h.name.toLowerCase()))
    .map((h) => ({ ...h }));
  return { ...out, payload: { mimeType: mimeTypeOf(m), headers } };
}

module.exports = { messageResource, snippetOf, toRfc822 };
