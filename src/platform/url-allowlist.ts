// Apps Script refuses every UrlFetch outside the manifest's urlFetchWhitelist, so an address outside it is
// refused here first, with a message that names the allowed prefixes, instead of failing at each request.
// Matching follows https://developers.google.com/apps-script/manifest/allowlist-url: the scheme and host
// must match (a leading `*.` matches one or more subdomains), the path is case-sensitive and the URL must be
// the prefix itself or below it (`/foo` allows `/foo`, `/foo/bar`, `/foo?x`, not `/foobar`).

// Replaced by the build with appsscript.json's urlFetchWhitelist (dev/build/apps-script-entry-points.mjs):
// the deployed dist/ gets the manifest's https:// prefixes only; the local build (dist-local/, for the
// tests and the playground) adds the loopback prefixes `http://127.0.0.1:*/` and `http://localhost:*/`.
declare const URL_FETCH_ALLOWLIST: readonly string[];

interface UrlParts {
  scheme: string;
  host: string;
  /** '*' only in a loopback prefix of the local build: any port. */
  port: string;
  /** Path, then query and fragment. */
  path: string;
}

const DEFAULT_PORT: Record<string, string> = { http: '80', https: '443' };

function parts(url: string): UrlParts | null {
  const match = /^([a-z][a-z0-9+.-]*):\/\/([^/?#@\s:]+)(?::(\d{1,5}|\*))?([^\s]*)$/i.exec(url.trim());
  if (!match) return null;
  const scheme = match[1].toLowerCase();
  const rest = match[4].startsWith('/') ? match[4] : `/${match[4]}`;
  return { scheme, host: match[2].toLowerCase(), port: match[3] || DEFAULT_PORT[scheme] || '', path: rest };
}

function hostMatches(host: string, pattern: string): boolean {
  if (!pattern.startsWith('*.')) return host === pattern;
  const suffix = pattern.slice(1);
  return host.endsWith(suffix) && host.length > suffix.length;
}

function pathMatches(path: string, prefix: string): boolean {
  if (!path.startsWith(prefix)) return false;
  if (path.length === prefix.length || prefix.endsWith('/')) return true;
  return /^[/?#]/.test(path.slice(prefix.length));
}

/** True when Apps Script lets the add-on fetch this URL under one of the prefixes. */
function isAllowedUrl(url: string, prefixes: readonly string[] = allowedUrlPrefixes()): boolean {
  const target = parts(url);
  if (!target) return false;
  return prefixes.some((prefix) => {
    const allowed = parts(prefix);
    return (
      allowed !== null &&
      allowed.scheme === target.scheme &&
      hostMatches(target.host, allowed.host) &&
      (allowed.port === '*' || allowed.port === target.port) &&
      pathMatches(target.path, allowed.path)
    );
  });
}

/** A service base URL is allowed when every request under it is (`<base>/…`). */
export function isAllowedBaseUrl(baseUrl: string, prefixes?: readonly string[]): boolean {
  return isAllowedUrl(`${baseUrl.replace(/\/+$/, '')}/`, prefixes);
}

function allowedUrlPrefixes(): readonly string[] {
  return URL_FETCH_ALLOWLIST;
}

/** "https://a/ or https://b/": the prefixes as a user reads them in a message. */
export function allowedPrefixesText(prefixes: readonly string[] = allowedUrlPrefixes()): string {
  if (prefixes.length === 0) return 'no address (the manifest lists none)';
  return prefixes.length === 1
    ? prefixes[0]
    : `${prefixes.slice(0, -1).join(', ')} or ${prefixes[prefixes.length - 1]}`;
}
