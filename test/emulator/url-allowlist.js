'use strict';
// The manifest's urlFetchWhitelist, as https://developers.google.com/apps-script/manifest/allowlist-url
// describes it.
//   - Saving a manifest checks each prefix: a valid https:// URL with a full domain and a non-empty path
//     (`https://host/`, not `https://host`); at most one `*`, only as the leading label (`https://*.host/`).
//   - A URL matches a prefix when the scheme and host match (`*.host` needs at least one subdomain), and its
//     path (case-sensitive) is the prefix's or below it: `/foo` matches `/foo`, `/foo/`, `/foo/bar`,
//     `/foo?bar` and `/foo#bar` (not `/foobar`: it is not below `/foo`).
//   - The page does not mention ports: a prefix matches its scheme's default port, or the port it names.
//   - With an allowlist, a fetch of any other URL throws `Request to <url> failed because the URL has not
//     been whitelisted in the script manifest.` (the text Apps Script users report, e.g. in the issue
//     trackers of grahamearley/FirestoreGoogleAppsScript #135 and diegomanuel/binance-to-google-sheets #82).
// Emulator only: `http://127.0.0.1:*/` and `http://localhost:*/` (the local build's loopback sandbox, on
// any port) are accepted although Apps Script would refuse them; nothing else with http:// is.
const { AppsScriptError } = require('./errors');

const LOOPBACK_PREFIXES = ['http://127.0.0.1:*/', 'http://localhost:*/'];
const DEFAULT_PORT = { http: '80', https: '443' };

function split(url) {
  const m = /^([a-z][a-z0-9+.-]*):\/\/([^/?#@\s:]*)(?::(\d{1,5}|\*))?([^\s]*)$/i.exec(String(url));
  if (!m) return null;
  const scheme = m[1].toLowerCase();
  const rest = m[4];
  const path = rest.startsWith('/') ? rest : `/${rest}`;
  return { scheme, host: m[2].toLowerCase(), port: m[3] || DEFAULT_PORT[scheme] || '', path, rawPath: rest };
}

/** Why Apps Script would refuse to save this prefix, or null when it is valid. */
function prefixProblem(prefix) {
  if (LOOPBACK_PREFIXES.includes(prefix)) return null;
  const p = split(prefix);
  if (!p) return `${prefix} is not a valid URL`;
  if (p.scheme !== 'https') return `${prefix}: URLs must use the HTTPS scheme`;
  const labels = p.host.split('.');
  if ((prefix.match(/\*/g) || []).length > 1) return `${prefix}: only one wildcard is allowed`;
  if (labels.slice(1).includes('*') || (p.host.includes('*') && labels[0] !== '*')) {
    return `${prefix}: the wildcard must be the leading label of the domain`;
  }
  if (labels.length < 2 || labels.some((l) => l === '')) return `${prefix}: the domain must be a full domain`;
  if (p.rawPath === '' || p.rawPath[0] !== '/') return `${prefix}: the path must not be empty`;
  return null;
}

function matches(url, prefix) {
  const u = split(url);
  const p = split(prefix);
  if (!u || !p || u.scheme !== p.scheme) return false;
  const hostOk = p.host.startsWith('*.')
    ? u.host.endsWith(p.host.slice(1)) && u.host.length > p.host.length - 1
    : u.host === p.host;
  if (!hostOk || (p.port !== '*' && p.port !== u.port)) return false;
  if (!u.path.startsWith(p.path)) return false;
  return (
    u.path.length === p.path.length || p.path.endsWith('/') || /^[/?#]/.test(u.path.slice(p.path.length))
  );
}

class UrlAllowlist {
  /** @param {string[]} prefixes the manifest's urlFetchWhitelist; throws as saving such a manifest fails */
  constructor(prefixes) {
    if (!Array.isArray(prefixes))
      throw new Error('appsscript.json has errors: urlFetchWhitelist must be a list');
    const problems = prefixes.map(prefixProblem).filter(Boolean);
    if (problems.length) throw new Error(`appsscript.json has errors: ${problems.join('; ')}`);
    this.prefixes = prefixes.slice();
  }
  allows(url) {
    return this.prefixes.some((prefix) => matches(url, prefix));
  }
  /** Throws Apps Script's exception when the URL is outside every prefix. */
  check(url) {
    if (!this.allows(url)) {
      throw new AppsScriptError(
        `Request to ${url} failed because the URL has not been whitelisted in the script manifest.`,
      );
    }
  }
}

module.exports = { UrlAllowlist, LOOPBACK_PREFIXES, matches, prefixProblem };
