// The constants the build writes into dist/Code.js (dev/build/service-addresses.mjs): a module that reads one
// when it loads (platform/settings.ts) needs it before it is imported, so a test file imports this first.
Object.assign(globalThis, {
  SERVICE_ADDRESSES: {
    outreach: 'https://api.outreach.example.com',
    phone: 'https://api.phonecheck.example.com',
  },
  URL_FETCH_ALLOWLIST: ['https://api.outreach.example.com/', 'https://api.phonecheck.example.com/'],
});
