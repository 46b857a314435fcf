// worker_port.mjs: the one difference between a Node worker_thread and a
// page's Worker, seen from inside the worker: how messages come and go.
// The Node module is imported only when there is no `self` (never in a page).

// Resolves to { listen(fn(data)), post(data, transfer) }.
export async function workerPort() {
  if (typeof self !== 'undefined' && typeof self.postMessage === 'function') {
    return {
      listen(fn) { self.onmessage = (e) => fn(e.data); },
      post(data, transfer = []) { self.postMessage(data, transfer); },
    };
  }
  const { parentPort } = await import('node:worker_threads');
  return {
    listen(fn) { parentPort.on('message', fn); },
    post(data, transfer = []) { parentPort.postMessage(data, transfer); },
  };
}
