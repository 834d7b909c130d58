'use strict';
// Peak memory of a measured run. The emulator blocks the main thread (synchronous UrlFetch waits with
// Atomics.wait), so a timer on the main thread would never fire during an execution: a small worker samples
// the process RSS (process-wide) every few milliseconds into a shared buffer. heapUsed is per isolate, so the
// main thread's heap (where the emulator and the script's vm contexts live) is sampled by the caller after
// every execution (sample()).
const { Worker } = require('node:worker_threads');

const WORKER_SOURCE = `
const { workerData } = require('node:worker_threads');
const peak = new Float64Array(workerData.buffer);
setInterval(() => {
  const rss = process.memoryUsage.rss();
  if (rss > peak[0]) peak[0] = rss;
}, workerData.intervalMs);
`;

class MemorySampler {
  constructor({ intervalMs = 5 } = {}) {
    this.peakRss = new Float64Array(new SharedArrayBuffer(8));
    this.worker = new Worker(WORKER_SOURCE, {
      eval: true,
      workerData: { buffer: this.peakRss.buffer, intervalMs },
    });
    this.worker.unref();
    this.peakHeapUsed = 0;
  }

  /** Starts a new measurement window. */
  reset() {
    this.peakRss[0] = 0;
    this.peakHeapUsed = 0;
    this.sample();
  }

  /** Samples the main thread (heapUsed is only visible here). */
  sample() {
    const m = process.memoryUsage();
    if (m.rss > this.peakRss[0]) this.peakRss[0] = m.rss;
    if (m.heapUsed > this.peakHeapUsed) this.peakHeapUsed = m.heapUsed;
  }

  /** { rss, heapUsed } maxima since reset(). */
  peak() {
    this.sample();
    return { rss: this.peakRss[0], heapUsed: this.peakHeapUsed };
  }

  async stop() {
    await this.worker.terminate();
  }
}

module.exports = { MemorySampler };
