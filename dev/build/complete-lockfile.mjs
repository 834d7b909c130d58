// npm 11 on this registry records only the platform packages it could fetch (the mirror answers 404 for the
// others), then `npm ci` refuses the lock because rollup's and jest's optional native packages are "missing
// from lock file". This adds an entry for each missing optional package, with the os/cpu/libc its name says,
// so `npm ci` sees a complete lock and skips them on this platform. Run after `npm install`:
//   node dev/build/complete-lockfile.mjs
import { readFileSync, writeFileSync } from 'node:fs';

const file = new URL('../../package-lock.json', import.meta.url);
const lock = JSON.parse(readFileSync(file, 'utf8'));
const packages = lock.packages;

const OS = [
  'android',
  'darwin',
  'freebsd',
  'linux',
  'openbsd',
  'openharmony',
  'win32',
  'wasm32',
  'netbsd',
  'sunos',
];
const CPU = {
  arm: 'arm',
  'arm-eabi': 'arm',
  gnueabihf: 'arm',
  arm64: 'arm64',
  x64: 'x64',
  ia32: 'ia32',
  loong64: 'loong64',
  ppc64: 'ppc64',
  riscv64: 'riscv64',
  s390x: 's390x',
  wasm32: 'wasm32',
};

function platformOf(name) {
  const parts = name.split('/').pop().split('-');
  const os = parts.find((p) => OS.includes(p));
  const cpu = parts.map((p, i) => CPU[`${p}-${parts[i + 1]}`] ?? CPU[p]).find(Boolean);
  const libc = parts.includes('musl')
    ? 'musl'
    : parts.includes('gnu') || parts.includes('gnueabihf')
      ? 'glibc'
      : undefined;
  return { os, cpu, libc };
}

let added = 0;
for (const [path, entry] of Object.entries(packages)) {
  for (const [name, version] of Object.entries(entry.optionalDependencies ?? {})) {
    const key = `node_modules/${name}`;
    if (packages[key] || packages[`${path}/${key}`]) continue;
    const { os, cpu, libc } = platformOf(name);
    const stub = { version, dev: entry.dev ?? undefined, optional: true };
    if (os) stub.os = [os === 'win32' ? 'win32' : os];
    if (cpu) stub.cpu = [cpu];
    if (libc) stub.libc = [libc];
    packages[key] = stub;
    added++;
  }
}
lock.packages = Object.fromEntries(
  Object.entries(packages).sort(([a], [b]) => (a === '' ? -1 : b === '' ? 1 : a < b ? -1 : 1)),
);
writeFileSync(file, JSON.stringify(lock, null, 2) + '\n');
console.log(`complete-lockfile: added ${added} optional platform entries`);
