'use strict';
const { execFileSync } = require('node:child_process');
const { startSandboxInWorker, Clock, DEMO_KEYS, TIMINGS } = require('../../dev/sandbox');

describe('startSandboxInWorker', () => {
  test('shares the caller clock, answers while the main thread is blocked, stops cleanly', async () => {
    const clock = Clock.virtual();
    const sb = await startSandboxInWorker({ clock, seed: 42 });
    try {
      expect(sb.outreachUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
      expect(sb.phoneUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
      const headers = { Authorization: `ApiKey ${DEMO_KEYS.paid}`, 'Content-Type': 'application/json' };
      const clockNow = async () => (await (await fetch(`${sb.outreachUrl}/__sandbox/clock`)).json()).now;
      expect(await clockNow()).toBe(clock.now());
      clock.advance(12345);
      expect(await clockNow()).toBe(clock.now());

      const sent = await fetch(`${sb.outreachUrl}/api/v1/emails/send/batch`, {
        method: 'POST',
        headers,
        body: JSON.stringify({
          content: 'x',
          body_format: 'text',
          recipients: [{ email: 'a@example.com', subject: 's' }],
        }),
      });
      const { task_id: taskId } = await sent.json();
      clock.advance(TIMINGS.taskFinalMs);
      const task = await (await fetch(`${sb.outreachUrl}/api/v1/emails/tasks/${taskId}`, { headers })).json();
      expect(task.status).toBe('completed');

      // the control on the worker's side moves the caller's clock too
      await fetch(`${sb.phoneUrl}/__sandbox/clock`, {
        method: 'POST',
        body: JSON.stringify({ advanceMs: 1000 }),
      });
      expect(await clockNow()).toBe(clock.now());

      // a synchronous request blocks this thread; the worker still answers
      const out = execFileSync(
        process.execPath,
        [
          '-e',
          `fetch(process.argv[1],{headers:{'x-api-key':'sandbox-phone'}}).then(r=>r.text()).then(t=>process.stdout.write(t))`,
          `${sb.phoneUrl}/api/user/credits`,
        ],
        { encoding: 'utf8', timeout: 10000 },
      );
      expect(JSON.parse(out)).toEqual({ code: 0, result: { total: 1000 } });
    } finally {
      await sb.stop();
    }
    await expect(fetch(`${sb.outreachUrl}/__sandbox/clock`)).rejects.toThrow();
  });

  test('stop() is idempotent and a second sandbox can start', async () => {
    const sb = await startSandboxInWorker({ clock: Clock.virtual() });
    await Promise.all([sb.stop(), sb.stop()]);
    const again = await startSandboxInWorker({ clock: Clock.virtual() });
    await again.stop();
  });

  test('a busy port rejects', async () => {
    const sb = await startSandboxInWorker({ clock: Clock.virtual() });
    const port = Number(new URL(sb.outreachUrl).port);
    await expect(startSandboxInWorker({ clock: Clock.virtual(), port })).rejects.toThrow(/EADDRINUSE/);
    await sb.stop();
  });
});
