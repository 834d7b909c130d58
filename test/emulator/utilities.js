'use strict';
// Utilities: virtual sleep, UUIDs, formatDate (Java SimpleDateFormat), base64 and digests over Java-style
// signed byte arrays, blobs, CSV. Blob is shared with UrlFetchApp's HTTPResponse.getBlob().
const crypto = require('node:crypto');
const zlib = require('node:zlib');
const { AppsScriptError, makeEnum } = require('./errors');
const { instrument } = require('./execution');
const { isDate } = require('./realm');
const { formatSimpleDate, isValidTimeZone } = require('./timezone');

const DigestAlgorithm = makeEnum('DigestAlgorithm', ['MD2', 'MD5', 'SHA_1', 'SHA_256', 'SHA_384', 'SHA_512']);
const MacAlgorithm = makeEnum('MacAlgorithm', [
  'HMAC_MD5',
  'HMAC_SHA_1',
  'HMAC_SHA_256',
  'HMAC_SHA_384',
  'HMAC_SHA_512',
]);
const Charset = makeEnum('Charset', ['US_ASCII', 'UTF_8']);
const NODE_HASH = { MD5: 'md5', SHA_1: 'sha1', SHA_256: 'sha256', SHA_384: 'sha384', SHA_512: 'sha512' };

function toSigned(buf) {
  const out = new Array(buf.length);
  for (let i = 0; i < buf.length; i++) out[i] = buf[i] > 127 ? buf[i] - 256 : buf[i];
  return out;
}

/** Bytes of a string (UTF-8 or US-ASCII) or of a (signed or unsigned) byte array. */
function toBuffer(data, charset) {
  if (typeof data === 'string') return Buffer.from(data, String(charset) === 'US_ASCII' ? 'latin1' : 'utf8');
  if (Array.isArray(data) || ArrayBuffer.isView(data)) return Buffer.from(Array.from(data, (b) => b & 0xff));
  if (data && typeof data.getBytes === 'function') return Buffer.from(data._bytes);
  if (data === null || data === undefined) throw new AppsScriptError('Invalid argument: value');
  return Buffer.from(String(data), 'utf8');
}

class Blob {
  constructor(env, bytes, contentType = null, name = null) {
    this._env = env;
    this._bytes = Buffer.from(bytes);
    this._type = contentType;
    this._name = name;
  }
  getBytes() {
    return toSigned(this._bytes);
  }
  getDataAsString(charset) {
    return this._bytes.toString(String(charset || 'UTF_8') === 'US_ASCII' ? 'latin1' : 'utf8');
  }
  getContentType() {
    return this._type;
  }
  setContentType(contentType) {
    this._type = contentType;
    return this;
  }
  getName() {
    return this._name;
  }
  setName(name) {
    this._name = name;
    return this;
  }
  setDataFromString(string, charset) {
    this._bytes = toBuffer(string, charset);
    return this;
  }
  setBytes(data) {
    this._bytes = toBuffer(data);
    return this;
  }
  copyBlob() {
    return new Blob(this._env, this._bytes, this._type, this._name);
  }
  isGoogleType() {
    return false;
  }
}

class UtilitiesImpl {
  constructor(env) {
    this._env = env;
    Object.assign(this, { DigestAlgorithm, MacAlgorithm, Charset });
  }
  sleep(milliseconds) {
    const ms = Number(milliseconds);
    if (!(ms >= 0) || ms > 300000) throw new AppsScriptError('Invalid argument: milliseconds');
    const { exec, emu } = this._env;
    if (exec) exec.spend(ms);
    else emu.clock.advance(ms);
    emu._chargeTime('sleep', ms);
    if (typeof emu.onSleep === 'function') emu.onSleep(ms);
  }
  getUuid() {
    return this._env.emu._uuid();
  }
  formatDate(date, timeZone, format) {
    if (!isDate(date))
      throw new AppsScriptError(
        `The parameters (${typeof date},String,String) don't match the method signature for Utilities.formatDate.`,
      );
    if (!isValidTimeZone(String(timeZone))) throw new AppsScriptError(`Invalid argument: timeZone`);
    try {
      return formatSimpleDate(date.getTime(), String(timeZone), String(format));
    } catch (e) {
      throw new AppsScriptError(`Invalid argument: format (${e.message})`);
    }
  }
  formatString(template, ...args) {
    let i = 0;
    return String(template).replace(/%([-0-9.]*)([sdfi%])/g, (m, flags, t) => {
      if (t === '%') return '%';
      const v = args[i++];
      if (t === 'd' || t === 'i') return String(Math.trunc(Number(v)));
      if (t === 'f') {
        const p = /\.(\d+)/.exec(flags);
        return Number(v).toFixed(p ? Number(p[1]) : 6);
      }
      return String(v);
    });
  }
  base64Encode(data, charset) {
    return toBuffer(data, charset).toString('base64');
  }
  base64EncodeWebSafe(data, charset) {
    return toBuffer(data, charset).toString('base64').replace(/\+/g, '-').replace(/\//g, '_');
  }
  base64Decode(encoded) {
    const s = String(encoded);
    if (!/^[A-Za-z0-9+/]*={0,2}$/.test(s.replace(/\s/g, '')))
      throw new AppsScriptError('Could not decode string.');
    return toSigned(Buffer.from(s, 'base64'));
  }
  base64DecodeWebSafe(encoded) {
    const s = String(encoded);
    if (!/^[A-Za-z0-9_-]*={0,2}$/.test(s.replace(/\s/g, '')))
      throw new AppsScriptError('Could not decode string.');
    return toSigned(Buffer.from(s.replace(/-/g, '+').replace(/_/g, '/'), 'base64'));
  }
  computeDigest(algorithm, value, charset) {
    const alg = NODE_HASH[String(algorithm)];
    if (!alg) throw new AppsScriptError(`Unsupported digest algorithm: ${algorithm}`);
    return toSigned(crypto.createHash(alg).update(toBuffer(value, charset)).digest());
  }
  computeHmacSignature(algorithm, value, key, charset) {
    const alg = NODE_HASH[String(algorithm).replace(/^HMAC_/, '')];
    if (!alg) throw new AppsScriptError(`Unsupported MAC algorithm: ${algorithm}`);
    return toSigned(crypto.createHmac(alg, toBuffer(key, charset)).update(toBuffer(value, charset)).digest());
  }
  computeHmacSha256Signature(value, key, charset) {
    return this.computeHmacSignature('HMAC_SHA_256', value, key, charset);
  }
  newBlob(data, contentType, name) {
    return new Blob(
      this._env,
      data === undefined ? Buffer.alloc(0) : toBuffer(data),
      contentType || null,
      name || null,
    );
  }
  /** gzip-compresses a blob (or bytes, or a string) into a new blob (application/x-gzip). */
  gzip(data, name) {
    const source = data && typeof data.getName === 'function' ? data.getName() : null;
    return new Blob(
      this._env,
      zlib.gzipSync(toBuffer(data)),
      'application/x-gzip',
      name || (source ? `${source}.gz` : null),
    );
  }
  /** Uncompresses a gzip blob; anything else throws, as Apps Script does. */
  ungzip(data) {
    try {
      return new Blob(this._env, zlib.gunzipSync(toBuffer(data)), null, null);
    } catch {
      throw new AppsScriptError('Could not decompress gzip.');
    }
  }
  parseCsv(csv, delimiter = ',') {
    const rows = [];
    let row = [];
    let cur = '';
    let q = false;
    const s = String(csv);
    for (let i = 0; i < s.length; i++) {
      const ch = s[i];
      if (q) {
        if (ch === '"' && s[i + 1] === '"') cur += s[++i];
        else if (ch === '"') q = false;
        else cur += ch;
      } else if (ch === '"') q = true;
      else if (ch === delimiter) {
        row.push(cur);
        cur = '';
      } else if (ch === '\n' || ch === '\r') {
        if (ch === '\r' && s[i + 1] === '\n') i++;
        row.push(cur);
        rows.push(row);
        row = [];
        cur = '';
      } else cur += ch;
    }
    if (cur !== '' || row.length) {
      row.push(cur);
      rows.push(row);
    }
    return rows;
  }
}

instrument(UtilitiesImpl, { label: 'Utilities', group: 'utilities' });
instrument(Blob, { label: 'Blob', group: 'utilities' });

module.exports = { UtilitiesImpl, Blob, toBuffer, toSigned, DigestAlgorithm, Charset };
