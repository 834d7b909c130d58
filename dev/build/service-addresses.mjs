// The service addresses a build is for. The specs name no host, so a deployment says where the services are:
//
//   OUTREACH_BASE_URL=https://api.example.net PHONE_BASE_URL=https://phone.example.net/v1 npm run build
//
// Each address becomes the add-on's default for that service (Settings start from it) and its prefix goes
// into the manifest's urlFetchWhitelist, which Apps Script enforces on every fetch and which the add-on
// itself checks before saving an address (src/platform/url-allowlist.ts). An address not given falls back to
// the example host in appsscript.json. Anything but a plain https:// address stops the build with what to
// write instead: Apps Script refuses other schemes, and a published add-on must list every host it fetches.

/** The example hosts, as appsscript.json lists them: what a build without the variables is for. */
export const EXAMPLE_ADDRESSES = Object.freeze({
  outreach: 'https://api.outreach.example.com',
  phone: 'https://api.phonecheck.example.com',
});

export const ADDRESS_VARIABLES = Object.freeze({ outreach: 'OUTREACH_BASE_URL', phone: 'PHONE_BASE_URL' });

export class ServiceAddressError extends Error {
  constructor(message) {
    super(message);
    this.name = 'ServiceAddressError';
  }
}

// https://, a host (letters, digits, dots, hyphens; no user, no wildcard), an optional port, an optional
// path; no query or fragment: the add-on appends the API paths to it.
const ADDRESS =
  /^https:\/\/([a-z0-9]([a-z0-9-]*[a-z0-9])?(\.[a-z0-9]([a-z0-9-]*[a-z0-9])?)+)(:\d{1,5})?(\/[^\s?#]*)?$/i;

/** The address in the variable, without a trailing '/'; throws ServiceAddressError on anything else. */
export function checkedAddress(variable, value) {
  const address = value.trim();
  if (!/^https:\/\//i.test(address)) {
    throw new ServiceAddressError(
      `${variable}=${value} is not an https:// address. Apps Script fetches only https:// addresses listed in ` +
        `the manifest: write it as ${variable}=https://api.example.com (a path such as /v1 may follow).`,
    );
  }
  if (!ADDRESS.test(address)) {
    throw new ServiceAddressError(
      `${variable}=${value} is not a service address: write https://, the host name, and optionally a port ` +
        `and a path (${variable}=https://api.example.com/v1), with no query, fragment, user name or wildcard.`,
    );
  }
  return address.replace(/\/+$/, '');
}

/** The manifest prefix that allows every request under a base address (`https://host/path/`). */
export function allowlistPrefix(address) {
  return `${address.replace(/\/+$/, '')}/`;
}

/**
 * The addresses of this build and the manifest's urlFetchWhitelist for them.
 * @param {Record<string, string | undefined>} env where OUTREACH_BASE_URL and PHONE_BASE_URL are read (an
 *   empty value counts as not set)
 * @param {string[]} manifestList appsscript.json's urlFetchWhitelist: its example prefixes give way to the
 *   addresses given; any other prefix a deployer added there is kept
 * @returns {{ addresses: { outreach: string, phone: string }, allowlist: string[] }}
 */
export function serviceAddresses(env, manifestList) {
  const addresses = {};
  for (const [service, variable] of Object.entries(ADDRESS_VARIABLES)) {
    const value = env[variable];
    addresses[service] = value && value.trim() ? checkedAddress(variable, value) : EXAMPLE_ADDRESSES[service];
  }
  const examples = Object.values(EXAMPLE_ADDRESSES).map(allowlistPrefix);
  const kept = manifestList.filter((prefix) => !examples.includes(prefix));
  const allowlist = [...new Set([...Object.values(addresses).map(allowlistPrefix), ...kept])];
  return { addresses, allowlist };
}
