#!/usr/bin/env node
'use strict';
// `npm run sandbox [-- --port N] [--seed S] [--host H] [--task-shape per-mail]`: outreach on N (default 8787),
// phone on N+1.

const { startSandbox, DEMO_KEYS } = require('./index');
const { Clock } = require('../clock');

function parseArgs(argv) {
  const options = { port: 8787, seed: 42, host: '127.0.0.1', taskShape: 'per-request' };
  for (let i = 0; i < argv.length; i++) {
    const [flag, inline] = argv[i].split('=');
    const value = inline ?? argv[++i];
    if (flag === '--port') options.port = Number(value);
    else if (flag === '--seed') options.seed = Number(value);
    else if (flag === '--host') options.host = value;
    else if (flag === '--task-shape') options.taskShape = value;
    else if (flag === '--help' || flag === '-h') options.help = true;
    else throw new Error(`unknown option ${argv[i]}`);
  }
  if (!Number.isInteger(options.port) || options.port < 0 || options.port > 65534)
    throw new Error('bad --port');
  if (!Number.isInteger(options.seed)) throw new Error('bad --seed');
  if (!['per-request', 'per-mail'].includes(options.taskShape))
    throw new Error('bad --task-shape (per-request or per-mail)');
  return options;
}

async function main() {
  const options = parseArgs(process.argv.slice(2));
  if (options.help) {
    console.log(
      'usage: node dev/sandbox/cli.js [--port 8787] [--seed 42] [--host 127.0.0.1] [--task-shape per-request|per-mail]',
    );
    return;
  }
  const sandbox = await startSandbox({
    port: options.port,
    phonePort: options.port === 0 ? 0 : options.port + 1,
    host: options.host,
    seed: options.seed,
    taskShape: options.taskShape,
    clock: Clock.real(),
  });
  console.log(`Outreach service: ${sandbox.outreachUrl}   (Authorization: ApiKey <key>)`);
  console.log(`Phone service:    ${sandbox.phoneUrl}   (x-api-key: <key>)`);
  console.log('Demo keys:');
  for (const [name, key] of Object.entries(DEMO_KEYS)) console.log(`  ${name.padEnd(11)} ${key}`);
  console.log(
    `Controls: ${sandbox.outreachUrl}/__sandbox/{reset,clock,faults,mails,unlocks,stats,accounts,fixtures}`,
  );
  console.log(
    `Personalized sends: ${options.taskShape === 'per-mail' ? 'one task per mail' : 'one task per request'}`,
  );
  console.log('Press Ctrl-C to stop.');
  const stop = async () => {
    await sandbox.close();
    process.exit(0);
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}

main().catch((err) => {
  console.error(err.message);
  process.exit(1);
});
