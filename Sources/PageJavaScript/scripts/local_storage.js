// The window's localStorage, written or read for a session's storage state (a Playwright storage state's origins).
//
// items: a list of [name, value] pairs to store, in order; or null to read. Returns true once the items are stored,
// or, reading, the items as JSON text of [name, value] pairs (text: an empty list would be an empty answer, which a
// job waits past).
(items) => {
  if (items === null) {
    return JSON.stringify(Array.from({ length: localStorage.length }, (_, i) => [localStorage.key(i), localStorage.getItem(localStorage.key(i))]));
  }
  for (const [name, value] of items) localStorage.setItem(name, value);
  return true;
}
